package backup_test

import (
	"context"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// An archive is portable: a snapshot of any backend restores into any
// other, every item byte for byte with its time, the migrator's
// checkpoints included (the restored store is a copy of the snapshotted
// one, history and all). DynamoDB to the file and the file to MongoDB are
// two of the pairs.
func TestAnArchiveOfAnyBackendRestoresIntoAnyOtherByteForByte(t *testing.T) {
	for _, from := range stores {
		for _, to := range stores {
			t.Run(from.name+" to "+to.name, func(t *testing.T) {
				src := from.open(t)
				fill(t, src, append(edgeItems(), generated(300)...))
				want := contents(t, src)
				path, sum := snapshot(t, src)
				if sum.Items != int64(len(want)) {
					t.Fatalf("the summary counts %d items; the store holds %d", sum.Items, len(want))
				}
				dst := to.open(t)
				rep, err := backup.Restore(context.Background(), open(t, path), dst, backup.RestoreOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Checkpoints != 1 {
					t.Errorf("%d checkpoints restored, want 1", rep.Checkpoints)
				}
				sameItems(t, "the restored store", contents(t, dst), want)
			})
		}
	}
}

// What kind of archive each backend gives: the file copies itself, a
// server's items are written out.
func TestTheFileIsCopiedWholeAndAServerIsWalked(t *testing.T) {
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			p := s.open(t)
			fill(t, p, generated(10))
			path, _ := snapshot(t, p)
			want := backup.KindItems
			if s.name == "bolt" {
				want = backup.KindBolt
			}
			a := open(t, path)
			if a.Manifest.Kind != want || a.Manifest.Source != "the test's store" || a.Manifest.Created.IsZero() {
				t.Fatalf("manifest %+v; want kind %s, the source's name and a time", a.Manifest, want)
			}
			if a.Summary.Items != 10 || a.Summary.Namespaces["wordle"] != 2 || len(a.Summary.CRC32) != 8 {
				t.Fatalf("summary %+v", a.Summary)
			}
		})
	}
}

// A snapshot names, and leaves out, what no backend could restore (a
// hand-edited document), and keeps going: a backup is never lost to one
// bad item.
func TestItemsBreakingTheContractAreListedNotArchived(t *testing.T) {
	p := invalid{stores[0].open(t)}
	fill(t, p, generated(5))
	path, sum := snapshot(t, p)
	if sum.Items != 5 || len(sum.Skipped) != 1 || sum.Skipped[0] != `bad/"__reserved__": a hand-edited document` {
		t.Fatalf("summary %+v; want 5 items and the bad one listed", sum)
	}
	if a := open(t, path); a.Summary.Items != 5 {
		t.Fatalf("the archive holds %d items", a.Summary.Items)
	}
}

// invalid is a store whose walk yields one item the contract rejects.
type invalid struct{ backup.Target }

func (p invalid) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	if err := fn(storage.Raw{Item: storage.Item{Namespace: "bad", Key: "__reserved__"}, Problem: "a hand-edited document"}); err != nil {
		return err
	}
	return p.Target.Walk(ctx, fn)
}
