// Package lease lets one of several processes hold a role (polling
// Telegram) through a record in the shared store: the holder renews it, a
// process whose holder stopped renewing takes it over. Only CAS is used, so
// it works on every backend, and across the Lambda and container runtimes.
//
// A lease names its owner (the replica, stable across its restarts) and the
// process (its boot). A replica that restarts takes the lease its previous
// process held at once instead of waiting it out. A holder that cannot
// renew stops holding (its context ends) well before its lease lapses, so
// whoever takes a lapsed lease knows the old holder has stopped.
package lease

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// record is the lease as stored.
type record struct {
	Owner   string `json:"owner"`
	Boot    string `json:"boot,omitempty"` // the owner's process that holds it
	Expires int64  `json:"expires"`        // unix nanos
}

// Lease is one process's claim on a role.
type Lease struct {
	store storage.KVStore
	key   string
	owner string
	boot  string
	ttl   time.Duration
	now   func() time.Time
	wait  func(ctx context.Context, d time.Duration) error
	fresh bool // nothing read of the lease yet: a record of this owner is a predecessor's
	held  atomic.Bool
}

// Option configures New.
type Option func(*Lease)

// WithClock sets the clock (tests).
func WithClock(now func() time.Time) Option { return func(l *Lease) { l.now = now } }

// WithWait replaces how the lease waits between tries (tests).
func WithWait(f func(ctx context.Context, d time.Duration) error) Option {
	return func(l *Lease) { l.wait = f }
}

// WithBoot names this process among its owner's in place of a random name
// (a simulation, whose replay must write the same records).
func WithBoot(boot string) Option { return func(l *Lease) { l.boot = boot } }

// New is this process's lease on key in store, as owner: the replica's
// name, stable across its restarts and unique among live processes (a
// container's hostname). A holder that does not renew within ttl loses it;
// it renews every ttl/3.
func New(store storage.KVStore, key, owner string, ttl time.Duration, opts ...Option) *Lease {
	l := &Lease{store: store, key: key, owner: owner, boot: newBoot(), ttl: ttl, now: time.Now, wait: pause.For, fresh: true}
	for _, o := range opts {
		o(l)
	}
	return l
}

// newBoot names this process among its owner's.
func newBoot() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ID names this process: its owner and boot.
func (l *Lease) ID() string { return l.owner + "#" + l.boot }

// ErrLost: another process holds the lease now, or this one could not
// renew it and stopped holding it before it lapses.
var ErrLost = errors.New("lease: held by another process")

// try takes or renews the lease; false when another process holds it. A
// record of this owner's older process is a predecessor's (a restart):
// taken at once, on the first read only, so that a process that lost the
// lease to another of its owner's never takes it back.
func (l *Lease) try(ctx context.Context) (bool, error) {
	won := false
	err := storage.UpdateJSON(ctx, l.store, l.key, func(r *record, found bool) (bool, error) {
		won = false
		now := l.now()
		mine := r.Owner == l.owner && r.Boot == l.boot
		predecessor := l.fresh && r.Owner == l.owner
		if found && !mine && !predecessor && r.Expires > now.UnixNano() {
			return false, nil
		}
		*r = record{Owner: l.owner, Boot: l.boot, Expires: now.Add(l.ttl).UnixNano()}
		won = true
		return true, nil
	})
	if err == nil {
		l.fresh = false
	}
	return won, err
}

// Holding reports whether f of Hold runs and the lease is not known lost:
// what this process knows without asking the store.
func (l *Lease) Holding() bool { return l.held.Load() }

// Holds reports whether this process holds the lease now, as the store
// says.
func (l *Lease) Holds(ctx context.Context) (bool, error) {
	var r record
	if err := l.store.GetJSON(ctx, l.key, &r); err != nil {
		return false, fmt.Errorf("lease: %w", err)
	}
	return r.Owner == l.owner && r.Boot == l.boot && r.Expires > l.now().UnixNano(), nil
}

// Hold runs f while this process holds the lease: it waits until the lease
// is free, then calls f with a context that ends when the lease is lost (or
// ctx ends), renewing it meanwhile. After f returns it releases the lease
// and, unless ctx ended, waits to hold it again. waiting is called (once per
// wait) while another process holds it.
func (l *Lease) Hold(ctx context.Context, f func(ctx context.Context), waiting func()) error {
	for ctx.Err() == nil {
		start := l.now()
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
		won, err := l.try(tctx)
		cancel()
		switch {
		case err == nil && !won:
			lost(ErrLost)
			return
		case err == nil:
			last = at
		case at.Sub(last) >= l.ttl-l.ttl/3:
			lost(fmt.Errorf("%w: not renewed for %s (%v)", ErrLost, at.Sub(last).Round(time.Second), err))
			return
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

// holder reads the current holder, for tests and logs.
func (l *Lease) holder(ctx context.Context) (string, bool) {
	var r record
	b, err := l.store.Get(ctx, l.key)
	if err != nil || json.Unmarshal(b, &r) != nil || r.Expires <= l.now().UnixNano() {
		return "", false
	}
	return r.Owner, true
}
