package backup_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// A store that holds items is not written over by mistake: the restore
// refuses, naming what it would overwrite and delete, and changes
// nothing; told to replace, it makes the store exactly the archive.
func TestARestoreIntoAStoreThatHoldsItemsRefusesUnlessToldToReplace(t *testing.T) {
	for _, s := range []string{"memory", "bolt"} {
		t.Run(s, func(t *testing.T) {
			src := storeNamed(t, s)
			fill(t, src, generated(50))
			want := contents(t, src)
			path, _ := snapshot(t, src)

			dst := storeNamed(t, s)
			held := []storage.Item{
				{Namespace: "wordle", Key: "chat:0000000", Value: []byte("a newer game"), UpdatedAt: 9e18},
				{Namespace: "stats", Key: "only-here", Value: []byte("1"), UpdatedAt: 1},
			}
			fill(t, dst, held)
			before := contents(t, dst)
			_, err := backup.Restore(t.Context(), open(t, path), dst, backup.RestoreOptions{})
			if !errors.Is(err, backup.ErrNotEmpty) {
				t.Fatalf("Restore = %v; want ErrNotEmpty", err)
			}
			for _, named := range []string{"it holds 2 items", "overwrite 1", "delete 1", `changed wordle/"chat:0000000"`, `extra stats/"only-here"`, "-replace"} {
				if !strings.Contains(err.Error(), named) {
					t.Errorf("the refusal does not say %q: %v", named, err)
				}
			}
			sameItems(t, "the refused store", contents(t, dst), before)

			rep, err := backup.Restore(t.Context(), open(t, path), dst, backup.RestoreOptions{Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Deleted != 1 {
				t.Errorf("replace deleted %d items, want 1", rep.Deleted)
			}
			sameItems(t, "the replaced store", contents(t, dst), want)
		})
	}
}

// The restore ends with the migrator's verify, item by item, against
// the archive: its report is the proof the store matches.
func TestARestoreVerifiesEveryItemAgainstTheArchive(t *testing.T) {
	src := storeNamed(t, "bolt")
	fill(t, src, generated(120))
	path, _ := snapshot(t, src)
	rep, err := backup.Restore(t.Context(), open(t, path), storeNamed(t, "memory"), backup.RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var matched int64
	for _, m := range rep.Verify.Modules {
		if !m.OK() {
			t.Errorf("a module differs: %+v", m)
		}
		matched += m.Matched
	}
	if matched != 120 || rep.Copy.Written != 120 {
		t.Fatalf("verify matched %d, the copy wrote %d; want 120 each", matched, rep.Copy.Written)
	}
}
