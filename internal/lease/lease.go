// Package lease lets one of several processes hold a role (polling
// Telegram) through a record in the shared store: the holder renews it, a
// process whose holder stopped renewing takes it over. Only CAS is used, so
// it works on every backend, and across the Lambda and container runtimes.
//
// A lease names its owner (the replica, stable across its restarts) and the
// process (its boot). A replica that restarts takes the lease its previous
// process held at once instead of waiting it out; were that process alive
// (two processes under one name), it learns so at its next renewal
// (ErrClash) and stands down, and until then both act on what it had in
// flight. A holder that cannot
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
	"log/slog"
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
	log   *slog.Logger
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

// WithLogger sets where the lease says what happens to it (default: nowhere).
func WithLogger(log *slog.Logger) Option { return func(l *Lease) { l.log = log } }

// WithBoot names this process among its owner's in place of a random name
// (a simulation, whose replay must write the same records).
func WithBoot(boot string) Option { return func(l *Lease) { l.boot = boot } }

// New is this process's lease on key in store, as owner: the replica's
// name, stable across its restarts and unique among live processes (a
// container's hostname). A holder that does not renew within ttl loses it;
// it renews every ttl/3.
func New(store storage.KVStore, key, owner string, ttl time.Duration, opts ...Option) *Lease {
	l := &Lease{store: store, key: key, owner: owner, boot: newBoot(), ttl: ttl, now: time.Now, wait: pause.For, fresh: true,
		log: slog.New(slog.DiscardHandler)}
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

// ErrLost: this process no longer holds the lease; the cause, one of
// the errors below, says why.
var ErrLost = errors.New("lease lost")

var (
	// ErrTaken: another replica holds the lease now.
	ErrTaken = fmt.Errorf("%w: another process holds it", ErrLost)
	// ErrClash: another live process of this owner took the lease, as its
	// restart would: two processes run under one name.
	ErrClash = fmt.Errorf("%w: another live process of this owner took it", ErrLost)
	// ErrUnrenewed: the store failed every renewal for two thirds of the
	// ttl, and this process stopped holding before the lease lapses.
	ErrUnrenewed = fmt.Errorf("%w: the store failed every renewal", ErrLost)
)

// id names the process a record is of.
func (r record) id() string { return r.Owner + "#" + r.Boot }

// try takes or renews the lease; false when another process holds it.
func (l *Lease) try(ctx context.Context) (bool, error) {
	won, _, err := l.take(ctx)
	return won, err
}

// take is try, with the holder's record when another process holds it. A record of this owner's older process is a
// predecessor's (a restart): taken at once, on the first read only, so
// that a process that lost the lease to another of its owner's never
// takes it back.
func (l *Lease) take(ctx context.Context) (bool, record, error) {
	won := false
	var holder record
	err := storage.UpdateJSON(ctx, l.store, l.key, func(r *record, found bool) (bool, error) {
		won, holder = false, *r
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
	return won, holder, err
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

// holder reads the current holder, for tests and logs.
func (l *Lease) holder(ctx context.Context) (string, bool) {
	var r record
	b, err := l.store.Get(ctx, l.key)
	if err != nil || json.Unmarshal(b, &r) != nil || r.Expires <= l.now().UnixNano() {
		return "", false
	}
	return r.Owner, true
}
