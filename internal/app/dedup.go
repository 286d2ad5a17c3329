package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
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
	// After this many failed runs an update is dropped, so one poison update
	// cannot block its chat (or the poller) forever.
	dedupMaxAttempts = 5
)

// dedupStale: a claim older than this is a crashed run, free to take again.
// It must exceed the longest a run may take (UpdateBudget, plus recording
// its outcome), or a second run would start alongside a live first one.
// A variable only so that testkit builds (the crash tests) can shorten it.
var dedupStale = 2 * time.Minute

type dedupState string

const (
	stateRunning dedupState = "running"
	stateDone    dedupState = "done"
	stateFailed  dedupState = "failed"
)

type dedupRecord struct {
	ID       int64      `json:"id"`
	State    dedupState `json:"state"`
	Attempts int        `json:"attempts,omitempty"`
	At       int64      `json:"at,omitempty"` // unix nanos of the last change; none once done
}

// doneRecord is the one form of a finished update's record: nothing in it
// varies, so the claim of the update that reuses the slot, dedupSlots
// later, can guess the slot's bytes and claim with one conditional write.
func doneRecord(id int64) ([]byte, error) {
	return json.Marshal(dedupRecord{ID: id, State: stateDone})
}

// slotGuess is what claim expects in update id's slot: nothing while the
// slots fill up after a fresh start of the store, then the record of the
// update dedupSlots before. Whichever the last claim found is the guess.
func (a *App) slotGuess(id int64) []byte {
	if !a.slotsFull.Load() {
		return nil
	}
	b, _ := doneRecord(id - dedupSlots)
	return b
}

// claimResult says what to do with an update.
type claimResult int

const (
	claimRun       claimResult = iota // handle it
	claimDuplicate                    // handled: skip and acknowledge
	claimInFlight                     // being handled elsewhere: do not acknowledge yet
	claimGiveUp                       // failed too often: drop it
)

func dedupKey(id int64) string {
	return "update:" + strconv.FormatInt(((id%dedupSlots)+dedupSlots)%dedupSlots, 10)
}

// claim records that this process is handling update id. When it is to run
// the update, it also returns the record it wrote, so that finish can swap
// it without reading it again.
func (a *App) claim(ctx context.Context, id int64) (claimResult, []byte, error) {
	var result claimResult
	var wrote []byte
	guess := a.slotGuess(id)
	err := storage.UpdateFrom(ctx, a.core, dedupKey(id), guess, func(cur []byte) (out []byte, err error) {
		defer func() { wrote = out }() // the last call is the one written
		var rec dedupRecord
		if cur != nil && json.Unmarshal(cur, &rec) != nil {
			rec = dedupRecord{} // unreadable: treat as someone else's slot
		}
		// f's last call sees what the slot held (a wrong guess is followed
		// by a read): the next claim guesses from it. This update's own
		// record (a redelivery) says nothing about the slots.
		if cur == nil || rec.ID != id {
			a.slotsFull.Store(cur != nil)
		}
		result = claimRun
		next := dedupRecord{ID: id, State: stateRunning, Attempts: 1, At: a.now().UnixNano()}
		if rec.ID == id && cur != nil {
			age := time.Duration(a.now().UnixNano() - rec.At)
			switch {
			case rec.State == stateDone:
				result = claimDuplicate
				return nil, nil
			case rec.State == stateRunning && age < dedupStale:
				// Being handled is not handled: the runner may die.
				result = claimInFlight
				return nil, nil
			case rec.Attempts >= dedupMaxAttempts:
				result = claimGiveUp
				return doneRecord(id)
			}
			next.Attempts = rec.Attempts + 1
		}
		return json.Marshal(next)
	})
	if err != nil {
		return 0, nil, fmt.Errorf("dedup: update %d: %w", id, err)
	}
	return result, wrote, nil
}

// finish records the outcome of a claimed update. A failed run leaves the
// update claimable, so a redelivery is handled again. A run that failed only
// because Telegram asked to wait does not count toward dropping the update.
// claimed is the record claim wrote: most often still the slot's value.
// A try that fails (a store too slow to answer within recordBudget) is
// made again: it may have landed, and then the next try finds it and
// writes the same record.
func (a *App) finish(ctx context.Context, id int64, claimed []byte, ok, flood bool) error {
	var err error
	for try := range recordTries {
		tctx, cancel := context.WithTimeout(ctx, recordBudget)
		err = a.finishOnce(tctx, id, claimed, ok, flood)
		cancel()
		if err == nil || errors.Is(err, storage.ErrNotFound) || ctx.Err() != nil {
			return err
		}
		if try < recordTries-1 {
			a.log.Warn("recording the update's outcome failed; trying again", "update_id", id, "err", err)
			if perr := pause.For(ctx, time.Duration(100<<try)*time.Millisecond); perr != nil {
				return err
			}
		}
	}
	return err
}

func (a *App) finishOnce(ctx context.Context, id int64, claimed []byte, ok, flood bool) error {
	err := storage.UpdateFrom(ctx, a.core, dedupKey(id), claimed, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, fmt.Errorf("update %d: %w: its slot vanished", id, storage.ErrNotFound)
		}
		var rec dedupRecord
		if json.Unmarshal(cur, &rec) != nil || rec.ID != id {
			return nil, nil // the slot moved on to a newer update
		}
		if ok {
			return doneRecord(id)
		}
		rec.State, rec.At = stateFailed, a.now().UnixNano()
		switch {
		case flood:
			rec.Attempts = max(rec.Attempts-1, 0)
		}
		return json.Marshal(rec)
	})
	if err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	return nil
}
