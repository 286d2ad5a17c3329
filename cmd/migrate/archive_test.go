package main

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
)

// The migrator reads a snapshot as it reads a store: copy from it, verify
// a store against it; as a target it is refused.
func TestAnArchiveIsASourceOfTheMigrator(t *testing.T) {
	s := newStores(t)
	seed(t, s.dyn)
	want := dump(t, s.dyn)
	archive := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := backup.WriteFile(t.Context(), s.dyn, archive, backup.Options{Source: "dynamodb table " + s.dyn.Table()}); err != nil {
		t.Fatal(err)
	}
	for _, step := range [][]string{
		{"--from", "archive", "--from-path", archive, "--to", "mongodb"},
		{"--from", "archive", "--from-path", archive, "--to", "mongodb", "--verify"},
	} {
		if out, err := migrateCmd(t, s, step...); err != nil || strings.Contains(strings.Join(step, " "), "verify") && !strings.Contains(out, "verify: identical") {
			t.Fatalf("migrate %v: %v\n%s", step, err, out)
		}
	}
	if got := dump(t, s.mongo); !maps.Equal(got, want) {
		t.Fatal("DynamoDB -> archive -> MongoDB changed the data")
	}
	if _, err := migrateCmd(t, s, "--from", "mongodb", "--to", "archive", "--to-path", archive); err == nil || !strings.Contains(err.Error(), "a source only") {
		t.Fatalf("an archive as the target = %v", err)
	}
}
