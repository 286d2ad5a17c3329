package backup_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// clock ticks a minute each time it is read.
func clock() func() time.Time {
	t := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Minute); return t }
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// The directory keeps the newest Keep snapshots, named by when they were
// taken, and nothing else.
func TestTheDirectoryKeepsTheNewestSnapshots(t *testing.T) {
	p := storeNamed(t, "bolt")
	fill(t, p, generated(10))
	d := backup.Dir{Path: t.TempDir(), Keep: 3}
	now := clock()
	var taken []string
	for range 5 {
		path, s, err := d.Take(context.Background(), p, backup.Options{Now: now})
		if err != nil || s.Items != 10 {
			t.Fatalf("Take = %v, %+v", err, s)
		}
		taken = append(taken, filepath.Base(path))
	}
	if got := names(t, d.Path); !slices.Equal(got, taken[2:]) {
		t.Fatalf("the directory holds %v; want the newest three of %v", got, taken)
	}
	if path, at, ok, err := d.Newest(); err != nil || !ok || filepath.Base(path) != taken[4] || at.IsZero() {
		t.Fatalf("Newest = %s, %v, %v, %v", path, at, ok, err)
	}
}

// failing is a store whose walk breaks after a few items, as a server
// that goes away mid-snapshot does.
type failing struct{ backup.Target }

var errGone = errors.New("the server went away")

func (f failing) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	n := 0
	return f.Target.Walk(ctx, func(r storage.Raw) error {
		if n++; n > 5 {
			return errGone
		}
		return fn(r)
	})
}

// A failed snapshot is the run's error, removes nothing that was there
// and leaves no partial file behind; a partial file a dead run left is
// removed once it is old.
func TestAFailedSnapshotKeepsTheOldOnesAndLeavesNoPartialFile(t *testing.T) {
	good := storeNamed(t, "memory")
	fill(t, good, generated(10))
	d := backup.Dir{Path: t.TempDir(), Keep: 2}
	now := clock()
	if _, _, err := d.Take(context.Background(), good, backup.Options{Now: now}); err != nil {
		t.Fatal(err)
	}
	before := names(t, d.Path)
	if _, _, err := d.Take(context.Background(), failing{good}, backup.Options{Now: now}); !errors.Is(err, errGone) {
		t.Fatalf("Take of a failing store = %v; want its error", err)
	}
	if got := names(t, d.Path); !slices.Equal(got, before) {
		t.Fatalf("after a failed snapshot the directory holds %v; want %v", got, before)
	}

	dead := filepath.Join(d.Path, ".miti99bot-x.tar.123.partial")
	if err := os.WriteFile(dead, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	young := filepath.Join(d.Path, ".miti99bot-y.tar.456.partial")
	if err := os.WriteFile(young, []byte("being written"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(dead, old, old); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Take(context.Background(), good, backup.Options{}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(names(t, d.Path), " ")
	if strings.Contains(got, "123.partial") || !strings.Contains(got, "456.partial") {
		t.Fatalf("the directory holds %s; want the dead run's partial file gone, the young one kept", got)
	}
}
