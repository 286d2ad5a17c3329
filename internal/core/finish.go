package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// finish records the outcome of a claimed update. A failed run leaves the
// update claimable, so a redelivery is handled again. A run that failed only
// because Telegram asked to wait does not count toward dropping the update.
// claimed is the record claim wrote: most often still the slot's value.
// A try that fails (a store too slow to answer within recordBudget) is
// made again: it may have landed, and then the next try finds it and
// writes the same record.
func (a *App) finish(ctx context.Context, id int64, claimed claimedRecord, end runEnd) error {
	err := a.recordTries(ctx, id, func(tctx context.Context) error { return a.finishOnce(tctx, id, claimed, end) })
	if runs := claimed.rec.runs(); err == nil && end.ok && runs > 1 {
		a.dropTokens(ctx, id, runs)
	}
	return err
}

// recordTries makes write, a write of update id's record, up to
// recordTries times, each within recordBudget.
func (a *App) recordTries(ctx context.Context, id int64, write func(ctx context.Context) error) error {
	var err error
	for try := range recordTries {
		tctx, cancel := context.WithTimeout(ctx, recordBudget)
		err = write(tctx)
		cancel()
		if err == nil || errors.Is(err, storage.ErrNotFound) || ctx.Err() != nil {
			return err
		}
		if try < recordTries-1 {
			a.log.Warn("recording the update's outcome failed; trying again", "update_id", id, "err", err)
			if perr := pause.For(ctx, pause.Backoff(try, 100*time.Millisecond, 400*time.Millisecond)); perr != nil {
				return err
			}
		}
	}
	return err
}

// runEnd is how a run ended, as its record keeps it.
type runEnd struct {
	ok       bool     // handled: done
	flood    bool     // failed only because Telegram asked to wait
	answered bool     // its press was answered: a run again answers it no more
	owed     []string // handled, but these modules' hooks failed: done, owing them (see owe)
}

// finishOnce is one try of finish.
func (a *App) finishOnce(ctx context.Context, id int64, claimed claimedRecord, end runEnd) error {
	mine := claimed.rec
	err := storage.UpdateFrom(ctx, a.core, claimed.key, claimed.bytes, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, fmt.Errorf("update %d: %w: its slot vanished", id, storage.ErrNotFound)
		}
		rec := mine // most often the slot still holds the claim: no decoding
		if !bytes.Equal(cur, claimed.bytes) {
			rec = dedupRecord{}
			if json.Unmarshal(cur, &rec) != nil || rec.ID != id {
				return nil, nil // the slot moved on to a newer update
			}
		}
		switch {
		case rec.State == stateDone:
			return nil, nil // recorded already (an earlier try of this finish landed late)
		case rec.State == stateRunning && (rec.At != mine.At || rec.runs() != mine.runs()):
			// Another run took the update over: this one outlived the stale
			// mark. That run records its own outcome; overwriting its live
			// claim would let a third run start.
			return nil, nil
		}
		if end.ok && len(end.owed) > 0 {
			return owedRecord(id, 1, end.owed), nil
		}
		if end.ok {
			return doneRecord(id), nil
		}
		rec.State, rec.At = stateFailed, a.now().UnixNano()
		rec.Answered = rec.Answered || end.answered
		if end.flood {
			rec.Attempts = max(rec.Attempts-1, 0)
		}
		return rec.encode(), nil
	})
	if err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	return nil
}
