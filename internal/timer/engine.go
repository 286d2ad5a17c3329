package timer

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Handler finds a module's OnTimer; ok false when the module is not
// enabled or has none (its timers then wait).
type Handler func(module string) (f func(context.Context, app.Timer) error, ok bool)

// Engine keeps every module's timers in one store (the core namespace)
// and fires them (Tick).
type Engine struct {
	store   storage.KVStore
	now     func() time.Time
	log     *slog.Logger
	handler Handler
	// workers bound the callbacks a tick runs at once (a callback's time
	// is mostly a Bot API send's wait: 64 keep 1,000 due in a minute
	// flowing with sends of 3 s; the client paces them to Telegram's
	// rate); perTick the timers it takes (the rest wait for the next tick).
	workers, perTick int
	// hoursPerTick bounds the hours one tick lists after an outage.
	hoursPerTick int
	// rand draws the timers' ids (nil: the global source); a simulation
	// gives a seeded one so that its replay writes the same keys. With it,
	// an id is a hash of salt (drawn once, at New) and what the Set names,
	// so that Sets running at once get the same ids whatever their order.
	rand *rand.Rand
	salt uint64
	// after sleeps on the engine's clock (Wake, a running claim's renewal).
	after func(time.Duration) <-chan time.Time
	// wakeAt (unix nanos) is when a sleeping Wake wakes; a Set of an
	// earlier timer pokes it.
	wakeAt atomic.Int64
	poke   chan struct{}
}

// Option configures New.
type Option func(*Engine)

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(e *Engine) { e.log = l } }

// WithHandler sets how a tick finds a module's OnTimer.
func WithHandler(h Handler) Option { return func(e *Engine) { e.handler = h } }

// WithRand draws the timers' ids from r (safe for concurrent use).
func WithRand(r *rand.Rand) Option { return func(e *Engine) { e.rand = r } }

// WithAfter sets how the engine sleeps on its clock (default time.After):
// a test with an injected clock fires it when it moves the clock on.
func WithAfter(f func(time.Duration) <-chan time.Time) Option { return func(e *Engine) { e.after = f } }

// WithBounds sets how many callbacks run at once and how many timers one
// tick takes at most.
func WithBounds(workers, perTick int) Option {
	return func(e *Engine) { e.workers, e.perTick = max(1, workers), max(1, perTick) }
}

// New keeps timers in store (storage.CoreNamespace) by the clock now.
func New(store storage.KVStore, now func() time.Time, opts ...Option) *Engine {
	e := &Engine{store: store, now: now, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		workers: 64, perTick: 5000, hoursPerTick: 48, after: time.After, poke: make(chan struct{}, 1)}
	for _, o := range opts {
		o(e)
	}
	if e.rand != nil {
		e.salt = e.rand.Uint64()
	}
	return e
}

// SetHandler sets how a tick finds a module's OnTimer, once the modules
// exist (they are built with their Timers first).
func (e *Engine) SetHandler(h Handler) { e.handler = h }

// For is module's view of its timers.
func (e *Engine) For(module string) app.Timers { return moduleTimers{e: e, module: module} }

// drawID is a random positive id (a tick's lease holder).
func (e *Engine) drawID() int64 {
	if e.rand != nil {
		return e.rand.Int64N(1<<62) + 1
	}
	return rand.Int64N(1<<62) + 1
}

// newID is a timer's id: random, positive, so a module applies its work
// once by it (app.ApplyOnce takes a non-zero int64). Seeded (WithRand), it
// is the hash of the engine's salt, the module, the key, the due time and
// the clock's now: the same for one seed however concurrent Sets interleave.
func (e *Engine) newID(module, key string, due, now time.Time) int64 {
	if e.rand == nil {
		return rand.Int64N(1<<62) + 1
	}
	h := fnv.New64a()
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], e.salt)
	binary.LittleEndian.PutUint64(b[8:], uint64(due.Unix()))
	binary.LittleEndian.PutUint64(b[16:], uint64(now.UnixNano()))
	h.Write(b[:])
	h.Write([]byte(module + "\x00" + key))
	return int64(h.Sum64()>>2) + 1
}
