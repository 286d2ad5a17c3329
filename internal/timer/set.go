package timer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// moduleTimers is app.Timers for one module.
type moduleTimers struct {
	e      *Engine
	module string
}

var _ app.Timers = moduleTimers{}

func (m moduleTimers) SetAfter(ctx context.Context, d time.Duration, t app.Timer) (app.Timer, error) {
	t.At = m.e.now().Add(d)
	return m.Set(ctx, t)
}

func (m moduleTimers) check(t app.Timer, now time.Time) error {
	switch {
	case storage.ValidateKey(t.Key) != nil || len(t.Key) > app.MaxTimerKey:
		return fmt.Errorf("%w: key %q (storage key rules, at most %d bytes)", app.ErrTimerInvalid, t.Key, app.MaxTimerKey)
	case len(t.Payload) > app.MaxTimerPayload:
		return fmt.Errorf("%w: payload of %d bytes, the limit is %d", app.ErrTimerInvalid, len(t.Payload), app.MaxTimerPayload)
	case t.At.IsZero() || t.At.After(now.Add(app.MaxTimerAhead)):
		return fmt.Errorf("%w: due %v, not within %v from now", app.ErrTimerInvalid, t.At, app.MaxTimerAhead)
	case t.Keep < 0 || t.Keep > app.MaxTimerKeep:
		return fmt.Errorf("%w: keep %v, not within 0 to %v", app.ErrTimerInvalid, t.Keep, app.MaxTimerKeep)
	}
	return nil
}

// Set writes the module index, the chat index, then the due record: a
// crash before the last leaves indexes to nothing, which List and Cancel
// read as no timer and a later Set replaces.
func (m moduleTimers) Set(ctx context.Context, t app.Timer) (app.Timer, error) {
	now := m.e.now()
	if err := m.check(t, now); err != nil {
		return app.Timer{}, err
	}
	// Kept to the second, rounded up: a timer never fires before its time.
	due := roundUp(t.At)
	// A due time in the past is filed under now: the tick's cursor has
	// passed older hours.
	id := m.e.newID(m.module, t.Key, due, now)
	filed := later(due, now.UTC().Truncate(time.Second))
	dk := dueKey(filed, m.module, id)
	rec := record{Module: m.module, Key: t.Key, ID: id, Chat: t.ChatID, Thread: t.ThreadID,
		Due: due.Unix(), Payload: t.Payload, Keep: int64((t.Keep + time.Second - 1) / time.Second)}
	if holder, err := m.claimKey(ctx, t.Key, dk, now); err != nil {
		return holder, err
	}
	write := func() error {
		if err := m.e.store.Put(ctx, chatKey(rec.Chat, rec.ID), []byte(dk)); err != nil {
			return err
		}
		return m.e.store.CompareAndSwap(ctx, dk, nil, rec.encode())
	}
	if err := write(); err != nil {
		// Best effort: what is left points to nothing and reads as no timer.
		_ = m.e.store.CompareAndDelete(context.WithoutCancel(ctx), byKey(m.module, t.Key), []byte(dk))
		return app.Timer{}, fmt.Errorf("timer %s/%s: %w", m.module, t.Key, err)
	}
	if holder, err := m.stillHeld(ctx, t.Key, dk, rec, now); err != nil {
		return holder, err
	}
	m.e.woken(filed)
	return rec.timer(), nil
}

// stillHeld reads the key's index again once the timer is written: a Set
// racing this one may have found the index pointing at a record not yet
// written, read it as holding nothing, and taken the key. Then this timer
// is taken back (a tick would drop it anyway) and the Set answers with the
// one that holds the key, as if it had come second.
func (m moduleTimers) stillHeld(ctx context.Context, key, dk string, rec record, now time.Time) (app.Timer, error) {
	bk := byKey(m.module, key)
	cur, err := m.e.store.Get(ctx, bk)
	if err == nil && string(cur) == dk {
		return app.Timer{}, nil
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return app.Timer{}, fmt.Errorf("timer %s/%s: %w", m.module, key, err)
	}
	bg := context.WithoutCancel(ctx)
	switch err := m.e.store.CompareAndDelete(bg, dk, rec.encode()); {
	case errors.Is(err, storage.ErrConflict) && cur == nil:
		return app.Timer{}, nil // due at once, a tick fired it and let its key go
	case err != nil && !errors.Is(err, storage.ErrConflict):
		return app.Timer{}, fmt.Errorf("timer %s/%s: %w", m.module, key, err)
	}
	_ = m.e.store.Delete(bg, chatKey(rec.Chat, rec.ID))
	holder := app.Timer{Key: key}
	if cur != nil {
		if r, _, err := m.holder(ctx, string(cur), now); err == nil && r.ID != 0 {
			holder = r.timer()
		}
	}
	return holder, fmt.Errorf("%w: %s/%s", app.ErrTimerExists, m.module, key)
}

// claimKey points the module's key at dk, unless a timer holds it (see
// record.holds): then it returns that timer with app.ErrTimerExists.
func (m moduleTimers) claimKey(ctx context.Context, key, dk string, now time.Time) (app.Timer, error) {
	bk := byKey(m.module, key)
	var cur []byte
	for range 4 {
		err := m.e.store.CompareAndSwap(ctx, bk, cur, []byte(dk))
		if !errors.Is(err, storage.ErrConflict) {
			return app.Timer{}, err
		}
		if cur, err = m.e.store.Get(ctx, bk); errors.Is(err, storage.ErrNotFound) {
			cur = nil
			continue
		} else if err != nil {
			return app.Timer{}, err
		}
		holder, held, err := m.holder(ctx, string(cur), now)
		if err != nil {
			return app.Timer{}, err
		}
		if held {
			return holder.timer(), fmt.Errorf("%w: %s/%s", app.ErrTimerExists, m.module, key)
		}
	}
	return app.Timer{}, fmt.Errorf("timer %s/%s: %w", m.module, key, storage.ErrBusy)
}

// holder reads the timer at dk and whether it holds its key at now. One
// gone, or a record that does not decode, holds nothing: a Set replaces it.
func (m moduleTimers) holder(ctx context.Context, dk string, now time.Time) (record, bool, error) {
	v, err := m.e.store.Get(ctx, dk)
	if errors.Is(err, storage.ErrNotFound) {
		return record{}, false, nil
	} else if err != nil {
		return record{}, false, err
	}
	r, err := decode(dk, v)
	return r, err == nil && r.holds(now), nil
}
