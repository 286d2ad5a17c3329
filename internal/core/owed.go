package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// ErrHooksOwed: the update was handled, but a module's OnCommand hook
// failed. The runtime must not acknowledge it: its redelivery runs the
// failed hooks, and only them (see owe).
var ErrHooksOwed = errors.New("command hooks owed")

// owe is the end of a handled command whose hooks failed (end.owed names
// their modules): its record, written done and owing them when it landed
// (recorded), and the update is not acknowledged. Its redelivery runs only
// those hooks (payOwed). A record that did not land is kept in memory until
// the redelivery (settle); when the redelivery goes to another process, it
// finds the update running and runs it again once the claim is stale (the
// caveat of an unrecorded end, logged already), hooks and all. A hook may
// so run twice for one update (its write landed unheard): it counts the
// update once (app.CommandEvent.Update).
func (a *App) owe(id int64, claimed claimedRecord, recorded bool, end runEnd) error {
	if !recorded {
		a.unrecorded.put(id, unrecordedEnd{claimed: claimed, end: end})
	}
	return fmt.Errorf("update %d: %w: %s", id, ErrHooksOwed, strings.Join(end.owed, ", "))
}

// payOwed runs the hooks the update's record owes (claimed, as claim read
// it), and records the update done, or owing those that failed again, up
// to dedupMaxAttempts runs. Deliveries racing here may both run a hook:
// it counts the update once.
func (a *App) payOwed(ctx context.Context, log updateLog, id int64, act *action, claimed claimedRecord) error {
	rec := claimed.rec
	var failed []string
	if act.event != nil { // nil: the command is gone since (a new deploy); nothing to run
		failed = a.runHooks(ctx, *act.event, rec.Owed)
	}
	next := doneRecord(id)
	if len(failed) > 0 {
		if rec.Attempts+1 >= dedupMaxAttempts {
			log.at(ctx, slog.LevelError, "command hooks dropped after repeated failures", "owed", failed, "attempts", dedupMaxAttempts)
			failed = nil
		} else {
			next = owedRecord(id, rec.Attempts+1, failed)
		}
	}
	rctx := context.WithoutCancel(ctx)
	if err := a.recordTries(rctx, id, func(tctx context.Context) error { return a.swapRecord(tctx, claimed.key, claimed.bytes, next) }); err != nil {
		// The hooks that ran count their update once: running them again
		// with a redelivery is harmless.
		log.at(ctx, slog.LevelWarn, "could not record the command hooks run", "err", err)
	}
	if len(failed) > 0 {
		return fmt.Errorf("update %d: %w: %s", id, ErrHooksOwed, strings.Join(failed, ", "))
	}
	return nil
}

// owedRecord is update id's record once handled, owing the hooks of the
// modules owed, paid for attempts runs so far.
func owedRecord(id int64, attempts int, owed []string) []byte {
	return dedupRecord{ID: id, State: stateDone, Attempts: attempts, Owed: owed}.encode()
}

// swapRecord replaces the record at key if it still is from: one that
// changed meanwhile (another delivery recorded it) is left as it is.
func (a *App) swapRecord(ctx context.Context, key string, from, to []byte) error {
	err := a.core.CompareAndSwap(ctx, key, from, to)
	if errors.Is(err, storage.ErrConflict) {
		return nil
	}
	return err
}
