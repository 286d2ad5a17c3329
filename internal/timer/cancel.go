package timer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Cancel deletes the due record only as it read it pending, with the
// store's conditional delete: a tick that took it first (swapped it to
// running) makes the delete fail, so of Cancel and the fire one wins. A
// timer with a Keep leaves a copy, done and cancelled, that holds its key.
func (m moduleTimers) Cancel(ctx context.Context, key string) (app.CancelOutcome, error) {
	bk := byKey(m.module, key)
	ptr, err := m.e.store.Get(ctx, bk)
	if errors.Is(err, storage.ErrNotFound) {
		return app.NoTimer, nil
	} else if err != nil {
		return 0, err
	}
	dk := string(ptr)
	for range 4 {
		v, err := m.e.store.Get(ctx, dk)
		if errors.Is(err, storage.ErrNotFound) {
			return app.NoTimer, nil // an index a Set left unfinished
		} else if err != nil {
			return 0, err
		}
		r, err := decode(dk, v)
		if err != nil {
			return 0, err
		}
		now := m.e.now()
		switch {
		case r.state() == claim.Running:
			return app.TooLate, nil
		case r.state() == claim.Done && r.Cancelled:
			return app.CancelledBefore, nil // cancelled, and kept
		case r.state() == claim.Done:
			return app.NoTimer, nil // fired, and kept
		}
		// One with a Keep is filed again, cancelled, before the decision,
		// so that its key is never free between the two.
		// A fire files its copy at the same key: one there means a tick
		// has taken the timer.
		var kdk string
		var copied []byte
		if r.Keep > 0 {
			var kept record
			kept, kdk = r.kept(now)
			kept.Cancelled = true
			copied = kept.encode()
			if err := m.e.store.CompareAndSwap(ctx, kdk, nil, copied); errors.Is(err, storage.ErrConflict) {
				continue
			} else if err != nil {
				return 0, err
			}
		}
		err = m.e.store.CompareAndDelete(ctx, dk, v)
		if errors.Is(err, storage.ErrConflict) {
			if kdk != "" { // only as this Cancel wrote it: a fire's copy stays
				_ = m.e.store.CompareAndDelete(ctx, kdk, copied) // left, a tick forgets it at its time
			}
			continue // taken, failed or moved meanwhile: read again
		} else if err != nil {
			return 0, err
		}
		// Decided: the indexes go with it (the module index to the kept
		// copy, if any); one left behind points to nothing.
		_ = m.e.store.Delete(ctx, chatKey(r.Chat, r.ID))
		if kdk != "" {
			_ = m.e.store.CompareAndSwap(ctx, bk, ptr, []byte(kdk))
		} else {
			_ = m.e.store.CompareAndDelete(ctx, bk, ptr)
		}
		return app.Cancelled, nil
	}
	return 0, fmt.Errorf("timer %s/%s: %w", m.module, key, storage.ErrBusy)
}

func (m moduleTimers) Keys(ctx context.Context, prefix string) ([]string, error) {
	keys, err := m.e.store.List(ctx, byKey(m.module, prefix))
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		keys[i] = k[len(byKey(m.module, "")):]
	}
	return keys, nil
}

// List reads the module index, then each timer (a read each, at once);
// a kept one (fired) is not listed.
func (m moduleTimers) List(ctx context.Context, prefix string) ([]app.Timer, error) {
	keys, err := m.e.store.List(ctx, byKey(m.module, prefix))
	if err != nil {
		return nil, err
	}
	out := make([]app.Timer, len(keys))
	found := make([]bool, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	sem := make(chan struct{}, m.e.workers)
	for i, k := range keys {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], found[i], errs[i] = m.read(ctx, k)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	timers := make([]app.Timer, 0, len(keys))
	for i, t := range out {
		if found[i] {
			timers = append(timers, t)
		}
	}
	return timers, nil
}

func (m moduleTimers) read(ctx context.Context, bk string) (app.Timer, bool, error) {
	ptr, err := m.e.store.Get(ctx, bk)
	if errors.Is(err, storage.ErrNotFound) {
		return app.Timer{}, false, nil
	} else if err != nil {
		return app.Timer{}, false, err
	}
	v, err := m.e.store.Get(ctx, string(ptr))
	if errors.Is(err, storage.ErrNotFound) {
		return app.Timer{}, false, nil
	} else if err != nil {
		return app.Timer{}, false, err
	}
	r, err := decode(string(ptr), v)
	if err != nil || r.Module != m.module || !strings.HasPrefix(bk, byPrefix) || r.state() == claim.Done {
		return app.Timer{}, false, nil
	}
	return r.timer(), true, nil
}
