package main

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"testing"

	"github.com/miti99bot/miti99bot/internal/cmdmain"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// The failure line names the command once, though internal/migrate's
// errors already begin with "migrate:" (it printed "migrate: migrate: ...").
func TestAFailureLineSaysMigrateOnce(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	p, err := bolt.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.For("alpha").Put(t.Context(), "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	bolts := []string{"--from", "bolt", "--from-path", from, "--to", "bolt", "--to-path", to}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a verify that finds a difference", slices.Concat(bolts, []string{"--verify"}), "migrate: source and target differ\n"},
		{"a cutover check without a first copy", slices.Concat(bolts, []string{"--verify-after-cutover"}), "migrate: the target has no copy from this source (no checkpoint); run the copy first\n"},
		{"an error of the command itself", []string{"--from", "bolt", "--from-path", from, "--to", "bolt", "--to-path", from}, "migrate: source and target are the same store\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(t.Context(), tt.args, func(string) string { return "" }, io.Discard, io.Discard)
			var line bytes.Buffer
			if code := cmdmain.Report(&line, "migrate", err); code != 1 || line.String() != tt.want {
				t.Fatalf("exit %d, %q; want 1, %q", code, line.String(), tt.want)
			}
		})
	}
}
