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

// runEnd is how a run ended, as its record keeps it.
type runEnd struct {
	ok       bool // handled: done
	flood    bool // failed only because Telegram asked to wait: not counted toward dropping it
	answered bool // its press was answered: a run again answers it no more
}

// finish records a claimed update done, or failed and free to run again.
// A record that never lands leaves the claim running: the poller's own
// redelivery takes it over at once (see Runner), a webhook's after
// dedupStale.
func (a *App) finish(ctx context.Context, id int64, claimed claimedRecord, end runEnd) error {
	return a.afterRun(ctx, id, "record the update's outcome", func(ctx context.Context) error {
		return a.finishOnce(ctx, id, claimed, end)
	})
}

// afterRun makes write, a write that follows an update's run (its record,
// a command hook's count), up to recordTries times, each within
// recordBudget: a store too slow for one try gets more than one chance.
func (a *App) afterRun(ctx context.Context, id int64, what string, write func(ctx context.Context) error) error {
	var err error
	for try := range recordTries {
		tctx, cancel := context.WithTimeout(ctx, recordBudget)
		err = write(tctx)
		cancel()
		if err == nil || ctx.Err() != nil || errors.Is(err, storage.ErrUnreadable) {
			return err
		}
		if try < recordTries-1 {
			a.log.Warn("could not "+what+"; trying again", "update_id", id, "err", err)
			if perr := pause.For(ctx, pause.Backoff(try, 100*time.Millisecond, 400*time.Millisecond)); perr != nil {
				return err
			}
		}
	}
	return err
}

// finishOnce is one try of finish.
func (a *App) finishOnce(ctx context.Context, id int64, claimed claimedRecord, end runEnd) error {
	mine := claimed.rec
	err := storage.UpdateFrom(ctx, a.core, claimed.key, claimed.bytes, func(cur []byte) ([]byte, error) {
		rec := mine // most often the slot still holds the claim: no decoding
		if !bytes.Equal(cur, claimed.bytes) {
			rec = dedupRecord{}
			if cur == nil || json.Unmarshal(cur, &rec) != nil || rec.ID != id {
				return nil, nil // gone, or moved on to a newer update
			}
		}
		switch {
		case rec.State == stateDone:
			return nil, nil // recorded already (an earlier try landed late)
		case rec.State == stateRunning && (rec.At != mine.At || rec.Attempts != mine.Attempts):
			// Another run took the update over: this one outlived its claim.
			// That run records its own outcome.
			return nil, nil
		case end.ok:
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
		return fmt.Errorf("claim: update %d: record: %w", id, err)
	}
	return nil
}
