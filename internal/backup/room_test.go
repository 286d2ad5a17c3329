package backup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// The payload is unpacked only where it fits: a directory with less room
// than the file is refused before anything is written into it.
func TestAPayloadIsUnpackedOnlyWhereItFits(t *testing.T) {
	src, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close(context.Background())
	if err := src.For("coin").Put(t.Context(), "u:1", []byte(`{"cash":1}`)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := WriteFile(t.Context(), src, path, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		free int64
		want error
	}{
		{"a directory with a byte too few is refused", 0, ErrNoRoom},
		{"a directory with room unpacks it", 1 << 40, nil},
		{"a system that does not say unpacks it", -1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			freeBytes = func(string) (int64, error) { return c.free, nil }
			t.Cleanup(func() { freeBytes = diskFree })
			a, err := Open(path, dir)
			if !errors.Is(err, c.want) {
				t.Fatalf("Open = %v; want %v", err, c.want)
			}
			if err == nil {
				a.Close(context.Background())
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Fatalf("%s holds %d files after", dir, len(left))
			}
		})
	}
}
