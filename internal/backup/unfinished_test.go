package backup_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/backup/backuptest"
)

// A restore cut short leaves its mark in the store: a rerun without
// -replace refuses, naming the archive and how many items the store
// lacks; RestoreInProgress (the bot's start) reports it; a rerun with
// -replace finishes it and clears the mark.
func TestARestoreCutShortIsReportedByTheRerunAndTheStart(t *testing.T) {
	for _, s := range []string{"memory", "bolt"} {
		t.Run(s, func(t *testing.T) {
			src := storeNamed(t, "bolt")
			fill(t, src, generated(2000))
			want := contents(t, src)
			path, _ := snapshot(t, src)

			dst := storeNamed(t, s)
			_, err := backup.Restore(t.Context(), open(t, path), &backuptest.FailingAfter{Target: dst, N: 1227}, backup.RestoreOptions{})
			if !errors.Is(err, backuptest.ErrWentAway) {
				t.Fatalf("the cut restore = %v; want the injected failure", err)
			}

			m, marked, err := backup.RestoreInProgress(t.Context(), dst)
			if err != nil || !marked {
				t.Fatalf("RestoreInProgress = %v, %v; want the mark", marked, err)
			}
			if m.Archive != path || m.Items != 2000 {
				t.Errorf("the mark = %+v; want archive %s, 2000 items", m, path)
			}
			if start := backup.Unfinished(m); !strings.Contains(start.Error(), path) {
				t.Errorf("the start's refusal does not name the archive: %v", start)
			}

			_, err = backup.Restore(t.Context(), open(t, path), dst, backup.RestoreOptions{})
			if !errors.Is(err, backup.ErrRestoreUnfinished) {
				t.Fatalf("the rerun = %v; want ErrRestoreUnfinished", err)
			}
			for _, named := range []string{path, "lacks 773 items", "-replace"} {
				if !strings.Contains(err.Error(), named) {
					t.Errorf("the rerun's refusal does not say %q: %v", named, err)
				}
			}

			if _, err := backup.Restore(t.Context(), open(t, path), dst, backup.RestoreOptions{Replace: true}); err != nil {
				t.Fatalf("the rerun with Replace: %v", err)
			}
			if _, marked, err := backup.RestoreInProgress(t.Context(), dst); err != nil || marked {
				t.Fatalf("after the finished restore RestoreInProgress = %v, %v; want no mark", marked, err)
			}
			sameItems(t, "the finished restore", contents(t, dst), want)
		})
	}
}

// The mark is written before the first item: a restore whose first load
// fails leaves a store that holds nothing of the archive, and says so.
func TestARestoreThatWroteNoItemStillLeavesItsMark(t *testing.T) {
	src := storeNamed(t, "memory")
	fill(t, src, generated(10))
	path, _ := snapshot(t, src)
	dst := storeNamed(t, "memory")
	if _, err := backup.Restore(t.Context(), open(t, path), &backuptest.FailingAfter{Target: dst, N: 0}, backup.RestoreOptions{}); !errors.Is(err, backuptest.ErrWentAway) {
		t.Fatalf("Restore = %v; want the injected failure", err)
	}
	_, err := backup.Restore(t.Context(), open(t, path), dst, backup.RestoreOptions{})
	if want := fmt.Sprintf("lacks %d items", 10); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("the rerun = %v; want a refusal saying %q", err, want)
	}
}
