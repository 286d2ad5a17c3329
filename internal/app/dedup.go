package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// De-duplication of redelivered updates (Telegram retries a webhook that
// failed or timed out, with the same update_id). A record per update lives in
// the core namespace in one of dedupSlots slots, chosen by update_id: update
// ids grow by one per update, so a slot is reused only after dedupSlots newer
// updates, more than this bot sees in a day. The store needs no TTL, and
// its size is bounded by the slot count.
const (
	dedupSlots = 8192
	// A claim older than this is a crashed run, free to take again.
	dedupStale = 2 * time.Minute
	// After this many failed runs an update is dropped, so one poison update
	// cannot block its chat (or the poller) forever.
	dedupMaxAttempts = 5
	casRetries       = 8
)

type dedupState string

const (
	stateRunning dedupState = "running"
	stateDone    dedupState = "done"
	stateFailed  dedupState = "failed"
)

type dedupRecord struct {
	ID       int64      `json:"id"`
	State    dedupState `json:"state"`
	Attempts int        `json:"attempts"`
	At       int64      `json:"at"` // unix nanos of the last change
}

// claimResult says what to do with an update.
type claimResult int

const (
	claimRun       claimResult = iota // handle it
	claimDuplicate                    // handled or being handled: skip
	claimGiveUp                       // failed too often: drop it
)

func dedupKey(id int64) string {
	return fmt.Sprintf("update:%d", ((id%dedupSlots)+dedupSlots)%dedupSlots)
}

// claim records that this process is handling update id.
func (a *App) claim(ctx context.Context, id int64) (claimResult, error) {
	key := dedupKey(id)
	for range casRetries {
		cur, err := a.core.Get(ctx, key)
		var rec dedupRecord
		switch {
		case errors.Is(err, storage.ErrNotFound):
			cur = nil
		case err != nil:
			return 0, fmt.Errorf("dedup: %w", err)
		default:
			if json.Unmarshal(cur, &rec) != nil {
				rec = dedupRecord{} // unreadable: treat as someone else's slot
			}
		}
		next := dedupRecord{ID: id, State: stateRunning, Attempts: 1, At: a.now().UnixNano()}
		if rec.ID == id && cur != nil {
			age := time.Duration(a.now().UnixNano() - rec.At)
			switch {
			case rec.State == stateDone:
				return claimDuplicate, nil
			case rec.State == stateRunning && age < dedupStale:
				return claimDuplicate, nil
			case rec.Attempts >= dedupMaxAttempts:
				next.State, next.Attempts = stateDone, rec.Attempts
				if err := a.casRecord(ctx, key, cur, next); err == nil {
					return claimGiveUp, nil
				} else if !errors.Is(err, storage.ErrConflict) {
					return 0, err
				}
				continue
			}
			next.Attempts = rec.Attempts + 1
		}
		err = a.casRecord(ctx, key, cur, next)
		if err == nil {
			return claimRun, nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return 0, err
		}
	}
	return 0, fmt.Errorf("dedup: update %d: %w after %d tries", id, storage.ErrConflict, casRetries)
}

// finish records the outcome of a claimed update. A failed run leaves the
// update claimable, so a redelivery is handled again.
func (a *App) finish(ctx context.Context, id int64, ok bool) error {
	key := dedupKey(id)
	for range casRetries {
		cur, err := a.core.Get(ctx, key)
		if err != nil {
			return fmt.Errorf("dedup: %w", err)
		}
		var rec dedupRecord
		if json.Unmarshal(cur, &rec) != nil || rec.ID != id {
			return nil // the slot moved on to a newer update
		}
		rec.State, rec.At = stateFailed, a.now().UnixNano()
		if ok {
			rec.State = stateDone
		}
		err = a.casRecord(ctx, key, cur, rec)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("dedup: finish update %d: %w", id, storage.ErrConflict)
}

func (a *App) casRecord(ctx context.Context, key string, cur []byte, rec dedupRecord) error {
	next, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := a.core.CompareAndSwap(ctx, key, cur, next); err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	return nil
}
