package backup_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
)

// The scheduled job's snapshot (in the background: low priority, paced)
// is the same snapshot, and stops, leaving nothing, when its run is cut.
func TestABackgroundSnapshotIsTheSameSnapshotAndStopsWhenCut(t *testing.T) {
	for _, s := range []string{"bolt", "memory"} {
		t.Run(s, func(t *testing.T) {
			p := storeNamed(t, s)
			fill(t, p, generated(3000)) // over a MiB: the pacer rests at least once
			want := contents(t, p)
			path := filepath.Join(t.TempDir(), "snap.tar")
			if _, err := backup.WriteFile(context.Background(), p, path, backup.Options{Background: true}); err != nil {
				t.Fatal(err)
			}
			sameItems(t, "the background snapshot", contents(t, open(t, path)), want)

			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			cut := filepath.Join(t.TempDir(), "cut.tar")
			if _, err := backup.WriteFile(ctx, p, cut, backup.Options{Background: true}); !errors.Is(err, context.Canceled) {
				t.Fatalf("a cut run = %v; want context.Canceled", err)
			}
			if left := names(t, filepath.Dir(cut)); len(left) != 0 {
				t.Fatalf("a cut run left %v", left)
			}
		})
	}
}
