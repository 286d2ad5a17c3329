package sim

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// faultKind is what happens at the chosen operation of an update's run.
type faultKind int

const (
	crashBefore  faultKind = iota // the process dies before the operation lands
	crashAfter                    // the operation lands, the process dies before it hears so
	timeout                       // the operation fails with a timeout, and writes nothing
	timeoutAfter                  // the operation lands, and its caller is told it timed out
	conflict                      // the k-th swap of a value loses to a racer (who wrote the same)
	outageFrom                    // the store goes down from the operation on
	atOnce                        // before the operation, another process serves the same update
	nFaultKinds
)

var faultNames = [nFaultKinds]string{"crash-before", "crash-after", "timeout", "timeout-after-write", "cas-conflict", "outage-mid-update", "at-once"}

func (k faultKind) String() string {
	if k >= nFaultKinds {
		return windowNames[k-nFaultKinds] // hookwindow.go
	}
	return faultNames[k]
}

// errTimeout is a store call that ran out of time, as a backend wraps it.
var errTimeout = fmt.Errorf("sim: store call timed out: %w", context.DeadlineExceeded)

// fault is one seeded failure inside one attempt: the k-th operation in
// where (a store namespace, or "telegram" for the Bot API calls the update
// makes). Only the operations of the update's own run are counted, never
// the core's record and hooks after it, which run concurrently (their
// order, and so the k-th of them, is not the seed's: a kill there picks
// its call by what it writes, hookwindow.go). A namespace's
// operations within a run are sequential, so the k-th is always the same.
type fault struct {
	kind  faultKind
	where string
	k     int
	win   *hookWindow // a kill in the window after the run (hookwindow.go)

	mu    sync.Mutex
	n     int
	fired bool
}

// hit counts one operation in ns (swap: a compare-and-swap of a value)
// and reports whether it is the chosen one.
func (f *fault) hit(ns string, swap bool) bool {
	if f == nil || ns != f.where || (f.kind == conflict && !swap) {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	if f.n != f.k || f.fired {
		return false
	}
	f.fired = true
	return true
}

func (f *fault) didFire() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.fired }

type faultKey struct{}

// withFault marks ctx as the run of an update whose attempt carries f.
func withFault(ctx context.Context, f *fault) context.Context {
	return context.WithValue(ctx, faultKey{}, f)
}

func faultOf(ctx context.Context) *fault { f, _ := ctx.Value(faultKey{}).(*fault); return f }

// procStore is one process's view of the store: the life's store, with
// the faults of the update it runs, and nothing at all once it is dead.
// A dead process's calls wait for the life's end and then fail: a killed
// process writes nothing more, and no cleanup of its runs.
type procStore struct {
	p *proc
	storage.KVProvider
}

func (s *procStore) For(ns string) storage.KVStore {
	return &procNS{s: s, ns: ns, inner: s.KVProvider.For(ns)}
}

// Close is the life's, never a process's.
func (s *procStore) Close(context.Context) error { return nil }

type procNS struct {
	s     *procStore
	ns    string
	inner storage.KVStore
}

// errKilled is what a dead process's calls return after the life ended.
var errKilled = errors.New("sim: the process was killed")

// do runs one operation under the process's fate and the update's fault.
func (w *procNS) do(ctx context.Context, swap bool, op func() error) error {
	p := w.s.p
	if p.dead.Load() {
		<-p.l.end
		return errKilled
	}
	f := faultOf(ctx)
	if !f.hit(w.ns, swap) {
		return op()
	}
	switch f.kind {
	case crashBefore:
		p.kill()
		<-p.l.end
		return errKilled
	case crashAfter:
		_ = op()
		p.kill()
		<-p.l.end
		return errKilled
	case timeout:
		return errTimeout
	case timeoutAfter:
		_ = op()
		return errTimeout
	case conflict:
		return fmt.Errorf("sim: %w", storage.ErrConflict)
	case outageFrom:
		p.l.store.SetDown(true)
		return op()
	case atOnce:
		p.l.alsoServe(p)
	}
	return op()
}

func (w *procNS) Get(ctx context.Context, key string) (out []byte, err error) {
	err = w.do(ctx, false, func() error { out, err = w.inner.Get(ctx, key); return err })
	return out, err
}

func (w *procNS) GetJSON(ctx context.Context, key string, dst any) error {
	return w.do(ctx, false, func() error { return w.inner.GetJSON(ctx, key, dst) })
}

func (w *procNS) Put(ctx context.Context, key string, val []byte) error {
	b, id := w.s.p.l.burstOn.Load(), inboxID(w.ns, key)
	if b != nil && id != 0 {
		b.parking(id)
	}
	err := w.do(ctx, false, func() error { return w.inner.Put(ctx, key, val) })
	if b != nil && id != 0 {
		b.parkEnded(id, err)
	}
	return err
}

func (w *procNS) PutJSON(ctx context.Context, key string, v any) error {
	return w.do(ctx, false, func() error { return w.inner.PutJSON(ctx, key, v) })
}

func (w *procNS) Delete(ctx context.Context, key string) error {
	err := w.do(ctx, false, func() error { return w.inner.Delete(ctx, key) })
	if b, id := w.s.p.l.burstOn.Load(), inboxID(w.ns, key); b != nil && id != 0 {
		b.unparked(id, err)
	}
	return err
}

func (w *procNS) List(ctx context.Context, prefix string) (out []string, err error) {
	err = w.do(ctx, false, func() error { out, err = w.inner.List(ctx, prefix); return err })
	return out, err
}

// CompareAndSwap: only a swap of a value may lose without a change to
// see (a racer wrote the same value); an insert that loses finds the key
// there, which a made-up conflict would not.
func (w *procNS) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	op := func() error {
		return w.do(ctx, expected != nil, func() error { return w.inner.CompareAndSwap(ctx, key, expected, val) })
	}
	if taken, err := w.swap(ctx, key, val, op); taken {
		return err
	}
	return op()
}

// CompareAndDelete takes no made-up conflict: a delete that loses finds
// the key gone or changed, which a made-up conflict would not.
func (w *procNS) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	return w.do(ctx, false, func() error { return w.inner.CompareAndDelete(ctx, key, expected) })
}
