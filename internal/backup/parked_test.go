package backup_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// withParked is a store of bot 111 holding items and six updates parked in
// the poller's inbox, and its snapshot.
func withParked(t *testing.T) (path string, items, parked map[string]storage.Item) {
	t.Helper()
	src := storeNamed(t, "bolt")
	fill(t, src, generated(30))
	items = contents(t, src)
	var inbox []storage.Item
	for i := range 6 {
		inbox = append(inbox, storage.Item{Namespace: storage.CoreNamespace, Key: fmt.Sprintf("inbox:c7:%019d", 100+i),
			Value: fmt.Appendf(nil, `{"update_id":%d}`, 100+i), UpdatedAt: 1})
	}
	fill(t, src, inbox)
	parked = contents(t, src)
	path = t.TempDir() + "/snap.tar"
	if _, err := backup.WriteFile(t.Context(), src, path, backup.Options{Source: "bot 111's file", Bot: 111}); err != nil {
		t.Fatal(err)
	}
	return path, items, parked
}

// The manifest names the bot by its numeric id; a restore into another
// bot's store is refused, writing nothing, unless told; a restore says
// how many updates the archive parked and leaves them out unless told,
// so the bot does not answer them again.
func TestARestoreRefusesAnotherBotsArchiveAndLeavesItsParkedUpdatesOutUnlessTold(t *testing.T) {
	path, items, all := withParked(t)
	if got := open(t, path).Manifest.Bot; got != 111 {
		t.Fatalf("the manifest names bot %d, want 111", got)
	}

	dst := storeNamed(t, "memory")
	_, err := backup.Restore(t.Context(), open(t, path), dst, backup.RestoreOptions{Bot: 222})
	if !errors.Is(err, backup.ErrOtherBot) || !strings.Contains(err.Error(), "bot 111") || !strings.Contains(err.Error(), "-other-bot") {
		t.Fatalf("a restore into bot 222's store = %v; want ErrOtherBot naming bot 111 and -other-bot", err)
	}
	sameItems(t, "the refused store", contents(t, dst), nil)

	for _, c := range []struct {
		name string
		o    backup.RestoreOptions
		want map[string]storage.Item
	}{
		{"told it is another bot's: its parked updates left out", backup.RestoreOptions{Bot: 222, OtherBot: true}, items},
		{"the same bot: its parked updates left out", backup.RestoreOptions{Bot: 111}, items},
		{"the bot unknown: its parked updates left out", backup.RestoreOptions{}, items},
		{"told to restore the parked updates", backup.RestoreOptions{Bot: 111, Parked: true}, all},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := storeNamed(t, "memory")
			rep, err := backup.Restore(t.Context(), open(t, path), dst, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Parked != 6 {
				t.Errorf("the report counts %d parked updates, want 6", rep.Parked)
			}
			sameItems(t, "the restored store", contents(t, dst), c.want)
		})
	}
}
