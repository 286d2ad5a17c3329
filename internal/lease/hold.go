package lease

import (
	"context"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Hold runs f while this process holds the lease: it waits until the lease
// is free, then calls f with a context that ends when the lease is lost (or
// ctx ends), renewing it meanwhile. After f returns it releases the lease
// and, unless ctx ended, waits to hold it again. waiting is called (once per
// wait) while another process holds it.
func (l *Lease) Hold(ctx context.Context, f func(ctx context.Context), waiting func()) error {
	for ctx.Err() == nil {
		start := l.now()
		won, err := l.try(ctx)
		if err != nil && ctx.Err() == nil {
			l.log.Warn("the lease cannot be read: the store failed; trying again", "key", l.key, "err", err, "retry_in", l.ttl/3)
		}
		if err == nil && !won && waiting != nil {
			waiting()
		}
		if err != nil || !won {
			if l.wait(ctx, l.ttl/3) != nil {
				return nil
			}
			continue
		}
		held, lost := context.WithCancelCause(ctx)
		l.held.Store(true)
		context.AfterFunc(held, func() { l.held.Store(false) })
		renewed := make(chan struct{})
		go func() {
			defer close(renewed)
			l.renew(held, lost, start)
		}()
		f(held)
		l.held.Store(false)
		lost(nil)
		<-renewed
		l.release(context.WithoutCancel(ctx))
	}
	return nil
}

// renew renews the lease every ttl/3 while held lasts. When another
// process holds it, or when no renewal has landed for two thirds of the
// ttl (the store unreachable), held ends with ErrLost: this process stops
// holding a third of the ttl before the lease lapses and another process
// may take it, so the two never act at once. last is when the try that
// won started (the lease runs ttl from a moment after it).
func (l *Lease) renew(held context.Context, lost context.CancelCauseFunc, last time.Time) {
	for held.Err() == nil {
		if l.wait(held, l.ttl/3) != nil {
			return
		}
		at := l.now()
		tctx, cancel := context.WithTimeout(held, l.ttl/3)
		won, holder, err := l.take(tctx)
		cancel()
		switch {
		case err == nil && won:
			last = at
		case err == nil && holder.Owner == l.owner:
			// A restart of this replica would have killed this process: a
			// second one runs under its name. Both act on the update in
			// flight here until this one stops.
			lost(fmt.Errorf("%w: %s holds it, this process is %s", ErrClash, holder.id(), l.ID()))
			l.log.Error("another live process with this hostname took the lease: this one stands down; give each replica its own hostname",
				"key", l.key, "holder", holder.id(), "this", l.ID())
			return
		case err == nil:
			lost(fmt.Errorf("%w: %s", ErrTaken, holder.id()))
			l.log.Warn("another process took the lease: this one stands down", "key", l.key, "holder", holder.id(), "this", l.ID())
			return
		case held.Err() != nil:
			return // f returned meanwhile: no renewal was needed
		case at.Sub(last) >= l.ttl-l.ttl/3:
			lost(fmt.Errorf("%w for %s; this process stopped holding before the lease lapses: %w", ErrUnrenewed, at.Sub(last).Round(time.Second), err))
			l.log.Error("the lease is given up: the store failed every renewal; this process stops holding it before it lapses",
				"key", l.key, "unrenewed_for", at.Sub(last).Round(time.Second), "err", err)
			return
		default:
			l.log.Warn("the lease was not renewed: the store failed; trying again", "key", l.key, "err", err, "retry_in", l.ttl/3)
		}
	}
}

// release gives the lease up if this process still holds it, so another
// replica takes over at once instead of after ttl.
func (l *Lease) release(ctx context.Context) {
	_ = storage.UpdateJSON(ctx, l.store, l.key, func(r *record, found bool) (bool, error) {
		if !found || r.Owner != l.owner || r.Boot != l.boot {
			return false, nil
		}
		r.Expires = 0
		return true, nil
	})
}
