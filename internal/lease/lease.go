// Package lease lets one of several processes hold a role (polling
// Telegram) through a record in the shared store: the holder renews it, a
// process whose holder stopped renewing takes it over. Only CAS is used, so
// it works on every backend, and across the Lambda and container runtimes.
package lease

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// record is the lease as stored.
type record struct {
	Owner   string `json:"owner"`
	Expires int64  `json:"expires"` // unix nanos
}

// Lease is one process's claim on a role.
type Lease struct {
	store storage.KVStore
	key   string
	owner string
	ttl   time.Duration
	now   func() time.Time
	wait  func(ctx context.Context, d time.Duration) error
}

// Option configures New.
type Option func(*Lease)

// WithClock sets the clock (tests).
func WithClock(now func() time.Time) Option { return func(l *Lease) { l.now = now } }

// WithWait replaces how the lease waits between tries (tests).
func WithWait(f func(ctx context.Context, d time.Duration) error) Option {
	return func(l *Lease) { l.wait = f }
}

// New is owner's lease on key in store. A holder that does not renew within
// ttl loses it; it renews every ttl/3.
func New(store storage.KVStore, key, owner string, ttl time.Duration, opts ...Option) *Lease {
	l := &Lease{store: store, key: key, owner: owner, ttl: ttl, now: time.Now, wait: pause.For}
	for _, o := range opts {
		o(l)
	}
	return l
}

// ErrLost: another process holds the lease now.
var ErrLost = errors.New("lease: held by another process")

// try takes or renews the lease; false when another owner holds it.
func (l *Lease) try(ctx context.Context) (bool, error) {
	won := false
	err := storage.UpdateJSON(ctx, l.store, l.key, func(r *record, found bool) (bool, error) {
		won = false
		now := l.now()
		if found && r.Owner != l.owner && r.Expires > now.UnixNano() {
			return false, nil
		}
		*r = record{Owner: l.owner, Expires: now.Add(l.ttl).UnixNano()}
		won = true
		return true, nil
	})
	return won, err
}

// Hold runs f while this process holds the lease: it waits until the lease
// is free, then calls f with a context that ends when the lease is lost (or
// ctx ends), renewing it meanwhile. After f returns it releases the lease
// and, unless ctx ended, waits to hold it again. waiting is called (once per
// wait) while another process holds it.
func (l *Lease) Hold(ctx context.Context, f func(ctx context.Context), waiting func()) error {
	for ctx.Err() == nil {
		won, err := l.try(ctx)
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
		renewed := make(chan struct{})
		go func() {
			defer close(renewed)
			for held.Err() == nil {
				if l.wait(held, l.ttl/3) != nil {
					return
				}
				if won, err := l.try(held); err == nil && !won {
					lost(ErrLost)
					return
				}
				// A failed renewal (the store blips) is tried again; the
				// lease lapses only after ttl without one.
			}
		}()
		f(held)
		lost(nil)
		<-renewed
		l.release(context.WithoutCancel(ctx))
	}
	return nil
}

// release gives the lease up if this process still holds it, so another
// replica takes over at once instead of after ttl.
func (l *Lease) release(ctx context.Context) {
	_ = storage.UpdateJSON(ctx, l.store, l.key, func(r *record, found bool) (bool, error) {
		if !found || r.Owner != l.owner {
			return false, nil
		}
		r.Expires = 0
		return true, nil
	})
}

// holder reads the current holder, for tests and logs.
func (l *Lease) holder(ctx context.Context) (string, bool) {
	var r record
	b, err := l.store.Get(ctx, l.key)
	if err != nil || json.Unmarshal(b, &r) != nil || r.Expires <= l.now().UnixNano() {
		return "", false
	}
	return r.Owner, true
}
