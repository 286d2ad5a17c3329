package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// markKey is the one item of the engine's namespace a restore writes
// before its first item and deletes once its verify passed: a store that
// holds it is a restore cut short, missing what was not written yet.
const markKey = "backup:restoring"

// RestoreMark is what a store being restored holds about that restore.
type RestoreMark struct {
	Archive string    `json:"archive"` // its path, as the restore was given it
	Source  string    `json:"source"`  // the store it was taken of
	Created time.Time `json:"created"` // when it was taken
	Items   int64     `json:"items"`   // what the restore writes
	Started time.Time `json:"started"`
}

func (m RestoreMark) String() string {
	return fmt.Sprintf("a restore of %s (taken of %s at %s, %d items) started at %s and never finished",
		m.Archive, m.Source, m.Created.Format(time.RFC3339), m.Items, m.Started.Format(time.RFC3339))
}

// ErrRestoreUnfinished refuses a store that holds a restore's mark: it may
// lack any part of the archive.
var ErrRestoreUnfinished = errors.New("backup: the store is an unfinished restore")

// RestoreInProgress reports the mark of a restore into p that has not
// finished (cut short, or running now): the bot must not start on such a
// store, nor a snapshot be taken of it.
func RestoreInProgress(ctx context.Context, p storage.KVProvider) (RestoreMark, bool, error) {
	var m RestoreMark
	raw, err := p.For(storage.CoreNamespace).Get(ctx, markKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return m, false, nil
	case err != nil:
		return m, false, fmt.Errorf("backup: reading the restore mark: %w", err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		m.Archive = "an unknown archive" // the mark is there all the same
	}
	return m, true, nil
}

// Unfinished is ErrRestoreUnfinished naming the restore and what to do.
func Unfinished(m RestoreMark) error { return unfinished(m, "") }

func unfinished(m RestoreMark, lacks string) error {
	return fmt.Errorf("%w: %s%s; finish it (botctl backup restore -replace %s) or restore another archive with -replace",
		ErrRestoreUnfinished, m, lacks, m.Archive)
}

// isMark reports whether an item is the restore mark.
func isMark(ns, key string) bool { return ns == storage.CoreNamespace && key == markKey }

// unmarked is a restore's target as the migrator sees it: without the
// mark, the restore's own item, so a verify does not count it as extra
// and a mirror does not delete it.
type unmarked struct{ Target }

func (u unmarked) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	return u.Target.Walk(ctx, func(r storage.Raw) error {
		if isMark(r.Namespace, r.Key) {
			return nil
		}
		return fn(r)
	})
}
