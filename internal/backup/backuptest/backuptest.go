// Package backuptest holds what tests of the restore share: a target that
// fails part way, as a restore killed mid-copy leaves its store.
package backuptest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// ErrWentAway is the injected failure: the store gone mid-restore.
var ErrWentAway = errors.New("injected: the store went away")

// FailingAfter is a restore target that takes its first N loaded items,
// then fails every load with ErrWentAway.
type FailingAfter struct {
	backup.Target
	N int
}

// Load takes what is left of N, then fails.
func (f *FailingAfter) Load(ctx context.Context, items []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	take := min(len(items), f.N)
	f.N -= take
	var res storage.LoadResult
	if take > 0 {
		var err error
		if res, err = f.Target.Load(ctx, items[:take], o); err != nil {
			return res, err
		}
	}
	if take < len(items) {
		return res, ErrWentAway
	}
	return res, nil
}

// CutRestore leaves the bolt file at path as a restore killed after
// written of items items (one namespace, coin) leaves it, and returns the archive it restored.
func CutRestore(t testing.TB, path string, items, written int) (archive string) {
	t.Helper()
	src := memory.New()
	for i := range items {
		if err := src.For("coin").Put(t.Context(), fmt.Sprintf("u:%04d", i), []byte(`{"cash":1}`)); err != nil {
			t.Fatal(err)
		}
	}
	archive = filepath.Join(t.TempDir(), "snap.tar")
	if _, err := backup.WriteFile(t.Context(), src, archive, backup.Options{Source: "memory store"}); err != nil {
		t.Fatal(err)
	}
	a, err := backup.Open(archive, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	dst, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close(context.Background())
	if _, err := backup.Restore(t.Context(), a, &FailingAfter{dst, written}, backup.RestoreOptions{}); !errors.Is(err, ErrWentAway) {
		t.Fatalf("the cut restore = %v; want the injected failure", err)
	}
	return archive
}
