package timer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// giveUpAfter: a callback that keeps failing is dropped, logged at ERROR,
// once its timer is this late.
const giveUpAfter = 24 * time.Hour

// Retaken is the engine's line for a timer taken over from a run that
// recorded no end: the one case its callback may run twice.
const Retaken = "timer taken over: its last run recorded no end"

// fired is what fire did with one due key.
type fired int

const (
	firedOK   fired = iota // the callback ran to success (or was given up)
	firedNone              // nothing to do: gone, or taken by another tick
	firedLeft              // still waits: busy elsewhere, failed, no handler
	firedKept              // a kept timer whose Keep ended: forgotten
)

// fire takes the timer at dk with the claim rule and runs its callback:
// pending or failed, or running past TimerStale (its runner died), it is
// swapped to running with compare-and-swap, so of racing ticks and a
// Cancel one wins.
func (e *Engine) fire(ctx context.Context, dk string) (fired, error) {
	v, err := e.store.Get(ctx, dk)
	if errors.Is(err, storage.ErrNotFound) {
		return firedNone, nil
	} else if err != nil {
		return firedLeft, err
	}
	r, err := decode(dk, v)
	if err != nil {
		// No retry can read it: it is left in the store, the ticks move on
		// past its hour, and the tick's error names it, so the engine
		// reports the damaged item as it reports any other.
		return firedNone, err
	}
	now := e.now()
	if r.state() == claim.Done {
		if err := e.forgetKept(ctx, dk, v, r); err != nil {
			return firedLeft, err
		}
		return firedKept, nil
	}
	if claim.Judge(r.state(), r.At, now, app.TimerStale) != claim.Take {
		return firedLeft, nil
	}
	if current, err := e.current(ctx, dk, r); err != nil || !current {
		if err == nil {
			err = e.superseded(ctx, dk, v, r)
		}
		return firedNone, err
	}
	f, ok := e.handler(r.Module)
	if !ok {
		return e.orphan(ctx, dk, v, r, now)
	}
	taken := r
	taken.State, taken.At, taken.Attempts = "running", now.UnixNano(), r.Attempts+1
	held := taken.encode()
	if err := e.store.CompareAndSwap(ctx, dk, v, held); errors.Is(err, storage.ErrConflict) {
		return firedNone, nil // cancelled, moved or taken meanwhile
	} else if err != nil {
		return firedLeft, err
	}
	log := e.log.With("module", r.Module, "key", r.Key, "timer", r.ID, "attempt", taken.Attempts)
	if r.State == "running" {
		// Its runner died (or its end never landed) after the callback may
		// have run: this run may repeat what that one did.
		e.log.Warn(Retaken, "module", r.Module, "key", r.Key, "timer", r.ID, "attempt", taken.Attempts)
	}
	held, cbErr := e.run(ctx, dk, held, taken, f)
	if cbErr != nil {
		late := now.Sub(time.Unix(r.Due, 0))
		if late < giveUpAfter {
			log.Warn("timer callback failed: tried again at the next tick", "err", cbErr)
			failed := taken
			failed.State, failed.At = "failed", e.now().UnixNano()
			if err := e.store.CompareAndSwap(context.WithoutCancel(ctx), dk, held, failed.encode()); err != nil {
				return firedLeft, fmt.Errorf("timer %s: release: %w", dk, err)
			}
			return firedLeft, nil
		}
		log.Error("timer dropped: its callback failed for a day", "late", late, "err", cbErr)
	}
	return firedOK, e.end(context.WithoutCancel(ctx), dk, held, taken)
}

// A fired timer's end is written again when the store refused it (a busy
// server, a write that timed out): left running, the timer would be taken
// over after TimerStale and its callback run again. The end's writes are
// each safe to repeat.
const (
	endTries   = 4
	endBackoff = 50 * time.Millisecond
)

func (e *Engine) end(ctx context.Context, dk string, held []byte, r record) error {
	var err error
	for try := 1; try <= endTries; try++ {
		if err = e.finish(ctx, dk, held, r); err == nil || try == endTries {
			break
		}
		if pause.For(ctx, time.Duration(try)*endBackoff) != nil {
			break
		}
	}
	return err
}

// orphan is a due timer whose module is not enabled (MODULES) or has no
// OnTimer: it waits a day for the module to come back, then is dropped,
// logged at ERROR, so that it does not hold the ticks back forever.
func (e *Engine) orphan(ctx context.Context, dk string, v []byte, r record, now time.Time) (fired, error) {
	late := now.Sub(time.Unix(r.Due, 0))
	if late < giveUpAfter {
		e.log.Warn("timer waits: its module is not enabled or has no OnTimer", "module", r.Module, "key", r.Key)
		return firedLeft, nil
	}
	if err := e.store.CompareAndDelete(ctx, dk, v); errors.Is(err, storage.ErrConflict) {
		return firedNone, nil
	} else if err != nil {
		return firedLeft, err
	}
	e.log.Error("timer dropped: its module was not enabled for a day", "module", r.Module, "key", r.Key, "late", late)
	return firedNone, e.unindex(ctx, dk, r)
}

// finish ends a fired timer: one with a Keep is filed again, done, under
// the second its Keep ends, its module index pointed there; then its
// indexes (the module index unless kept) and its record go. A crash
// before the last leaves it running, taken over after TimerStale; a kept
// copy left by such a crash holds nothing and is forgotten in its turn.
func (e *Engine) finish(ctx context.Context, dk string, held []byte, r record) error {
	bk, to := byKey(r.Module, r.Key), []byte(nil)
	if r.Keep > 0 {
		kept, kdk := r.kept(e.now())
		if err := e.store.Put(ctx, kdk, kept.encode()); err != nil {
			return fmt.Errorf("timer %s: keep: %w", dk, err)
		}
		to = []byte(kdk)
	}
	var err error
	if to != nil {
		err = e.store.CompareAndSwap(ctx, bk, []byte(dk), to)
	} else {
		err = e.store.CompareAndDelete(ctx, bk, []byte(dk))
	}
	if err != nil && !errors.Is(err, storage.ErrConflict) {
		return fmt.Errorf("timer %s: %w", dk, err) // conflict: a newer Set holds the key
	}
	if err := e.store.Delete(ctx, chatKey(r.Chat, r.ID)); err != nil {
		return fmt.Errorf("timer %s: %w", dk, err)
	}
	if err := e.store.CompareAndDelete(ctx, dk, held); err != nil && !errors.Is(err, storage.ErrConflict) {
		return fmt.Errorf("timer %s: %w", dk, err) // conflict: moved or retaken meanwhile
	}
	return nil
}

// forgetKept lets a kept timer's key go once a tick reaches the end of
// its Keep: its module index (unless a newer Set holds the key), then its
// record.
func (e *Engine) forgetKept(ctx context.Context, dk string, v []byte, r record) error {
	err := e.store.CompareAndDelete(ctx, byKey(r.Module, r.Key), []byte(dk))
	if err == nil || errors.Is(err, storage.ErrConflict) {
		err = e.store.CompareAndDelete(ctx, dk, v)
	}
	if err != nil && !errors.Is(err, storage.ErrConflict) {
		return fmt.Errorf("timer %s: forget: %w", dk, err)
	}
	return nil
}

// unindex deletes a timer's two indexes.
func (e *Engine) unindex(ctx context.Context, dk string, r record) error {
	if err := e.store.CompareAndDelete(ctx, byKey(r.Module, r.Key), []byte(dk)); err != nil && !errors.Is(err, storage.ErrConflict) {
		return fmt.Errorf("timer %s: %w", dk, err) // conflict: a newer Set holds the key
	}
	if err := e.store.Delete(ctx, chatKey(r.Chat, r.ID)); err != nil {
		return fmt.Errorf("timer %s: %w", dk, err)
	}
	return nil
}

// current reports whether the key's index still points at dk. A timer it
// does not point at lost its key to a racing Set whose end did not clean
// it up (a crash between the two): the key's timer is the other one.
func (e *Engine) current(ctx context.Context, dk string, r record) (bool, error) {
	cur, err := e.store.Get(ctx, byKey(r.Module, r.Key))
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("timer %s: %w", dk, err)
	}
	return string(cur) == dk, nil
}

// superseded deletes a timer whose key another holds, never fired.
func (e *Engine) superseded(ctx context.Context, dk string, v []byte, r record) error {
	if err := e.store.CompareAndDelete(ctx, dk, v); errors.Is(err, storage.ErrConflict) {
		return nil
	} else if err != nil {
		return fmt.Errorf("timer %s: %w", dk, err)
	}
	e.log.Warn("timer dropped: a racing Set holds its key", "module", r.Module, "key", r.Key, "timer", r.ID)
	return e.store.Delete(ctx, chatKey(r.Chat, r.ID))
}
