package lease

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// parked is a wait that returns only when the test says so (or ctx ends).
func parked(proceed <-chan struct{}, waiting chan<- struct{}) func(ctx context.Context, d time.Duration) error {
	return func(ctx context.Context, _ time.Duration) error {
		select {
		case waiting <- struct{}{}:
		default:
		}
		select {
		case <-proceed:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

var t0 = time.Unix(1_800_000_000, 0)

func TestOneHolderAtATimeAndTheNextTakesOverOnRelease(t *testing.T) {
	store := memory.New().For("core")
	clk := &clock{t: t0}
	never := make(chan struct{})
	a := New(store, "poller", "a", 30*time.Second, WithClock(clk.now), WithWait(parked(never, make(chan struct{}, 1))))
	bRetry, bWaiting := make(chan struct{}), make(chan struct{}, 1)
	b := New(store, "poller", "b", 30*time.Second, WithClock(clk.now), WithWait(parked(bRetry, bWaiting)))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	aHolds, aStop, aDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		_ = a.Hold(ctx, func(context.Context) { close(aHolds); <-aStop; cancel() }, nil)
		close(aDone)
	}()
	<-aHolds
	bHolds := make(chan struct{})
	bCtx, bCancel := context.WithCancel(t.Context())
	defer bCancel()
	// b stops once it holds: otherwise it would release, hold again and
	// call f a second time.
	go func() { _ = b.Hold(bCtx, func(context.Context) { close(bHolds); bCancel() }, nil) }()
	<-bWaiting // b found a's lease and waits
	select {
	case <-bHolds:
		t.Fatal("b took the lease while a held it")
	default:
	}
	close(aStop) // a stops (a deploy) and releases the lease
	<-aDone
	close(bRetry) // b tries again, at once
	select {
	case <-bHolds:
	case <-testenv.Context(t).Done():
		t.Fatal("b never took over")
	}
}

func TestAHolderThatStopsRenewingLosesTheLeaseAfterItsTTL(t *testing.T) {
	store := memory.New().For("core")
	clk := &clock{t: t0}
	a := New(store, "poller", "a", 30*time.Second, WithClock(clk.now))
	if won, err := a.try(t.Context()); !won || err != nil { // a holds, then its process dies
		t.Fatalf("a: %v %v", won, err)
	}
	b := New(store, "poller", "b", 30*time.Second, WithClock(clk.now))
	if won, _ := b.try(t.Context()); won {
		t.Fatal("b took a live lease")
	}
	clk.add(31 * time.Second) // no renewal for longer than the ttl
	if won, err := b.try(t.Context()); !won || err != nil {
		t.Fatalf("b after the ttl: %v %v; want the lease", won, err)
	}
}

func TestAHolderLearnsItLostTheLease(t *testing.T) {
	store := memory.New().For("core")
	clk := &clock{t: t0}
	renew := make(chan struct{})
	a := New(store, "poller", "a", 30*time.Second, WithClock(clk.now), WithWait(parked(renew, make(chan struct{}, 1))))
	cause := make(chan error, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		_ = a.Hold(ctx, func(held context.Context) {
			// Another replica took it (a's renewals stalled past the ttl).
			_ = store.Put(context.Background(), "poller", []byte(`{"owner":"b","expires":9000000000000000000}`))
			close(renew) // a's next renewal finds it
			<-held.Done()
			cause <- context.Cause(held)
			cancel()
		}, nil)
	}()
	if err := <-cause; !errors.Is(err, ErrLost) {
		t.Fatalf("the holder's context ended with %v, want ErrLost", err)
	}
	if owner, ok := a.holder(context.Background()); !ok || owner != "b" {
		t.Fatalf("holder %q %v: a must not release b's lease", owner, ok)
	}
}

// A replica keeps its name across restarts (a container's hostname): its
// new process takes the lease the killed one held at once, instead of
// waiting out the ttl; the old process, were it alive, never takes it back.
func TestARestartedReplicaTakesOverItsPredecessorsLeaseAtOnce(t *testing.T) {
	store := memory.New().For("core")
	clk := &clock{t: t0}
	killed := New(store, "poller", "host", 30*time.Second, WithClock(clk.now))
	if won, err := killed.try(t.Context()); !won || err != nil {
		t.Fatalf("the first process: %v %v", won, err)
	}
	other := New(store, "poller", "other-host", 30*time.Second, WithClock(clk.now))
	if won, _ := other.try(t.Context()); won {
		t.Fatal("another replica took a live lease")
	}
	restarted := New(store, "poller", "host", 30*time.Second, WithClock(clk.now))
	if won, err := restarted.try(t.Context()); !won || err != nil {
		t.Fatalf("the restarted process: %v %v; want the lease at once", won, err)
	}
	if holds, err := restarted.Holds(t.Context()); !holds || err != nil {
		t.Fatalf("Holds = %v %v", holds, err)
	}
	if won, _ := killed.try(t.Context()); won {
		t.Fatal("the old process took the lease back from its successor")
	}
	if holds, _ := killed.Holds(t.Context()); holds {
		t.Fatal("the old process still says it holds the lease")
	}
}

// A holder whose renewals fail (the store unreachable) stops holding a
// third of the ttl before its lease lapses: whoever takes the lapsed lease
// never acts alongside it.
func TestAHolderThatCannotRenewStopsBeforeItsLeaseLapses(t *testing.T) {
	sw := storagetest.NewSwitch(memory.New())
	store := sw.For("core")
	clk := &clock{t: t0}
	// No time passes until the store is down: the renewals must not run
	// ahead of the holder's first step.
	down := make(chan struct{})
	tick := func(ctx context.Context, d time.Duration) error {
		select {
		case <-down:
		case <-ctx.Done():
			return ctx.Err()
		}
		clk.add(d)
		return ctx.Err()
	}
	a := New(store, "poller", "a", 30*time.Second, WithClock(clk.now), WithWait(tick))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stopped := make(chan time.Time, 1)
	var cause error
	go func() {
		_ = a.Hold(ctx, func(held context.Context) {
			sw.SetDown(true) // after the lease was taken, at t0
			close(down)
			<-held.Done()
			cause = context.Cause(held)
			stopped <- clk.now()
			cancel()
		}, nil)
	}()
	select {
	case at := <-stopped:
		if !errors.Is(cause, ErrLost) {
			t.Fatalf("the holder stopped with %v, want ErrLost", cause)
		}
		if lapse := t0.Add(30 * time.Second); !at.Before(lapse.Add(-5 * time.Second)) {
			t.Fatalf("the holder stopped at %v, its lease lapses at %v: too late", at.Sub(t0), lapse.Sub(t0))
		}
	case <-testenv.Context(t).Done():
		t.Fatal("a holder that cannot renew kept holding")
	}
}

func TestHoldingLastsWhileTheHolderRuns(t *testing.T) {
	store := memory.New().For("core")
	a := New(store, "poller", "a", 30*time.Second)
	if a.Holding() {
		t.Fatal("holding before Hold")
	}
	ctx, cancel := context.WithCancel(t.Context())
	inside := make(chan bool, 1)
	_ = a.Hold(ctx, func(context.Context) { inside <- a.Holding(); cancel() }, nil)
	if !<-inside {
		t.Fatal("not holding while f runs")
	}
	if a.Holding() {
		t.Fatal("still holding after Hold returned")
	}
}

func TestABootGivenNamesTheProcessAndItsRecord(t *testing.T) {
	ctx := context.Background()
	store := memory.New().For("core")
	l := New(store, "k", "host", time.Minute, WithBoot("poller-3"))
	if got := l.ID(); got != "host#poller-3" {
		t.Fatalf("ID = %q, want host#poller-3", got)
	}
	if won, err := l.try(ctx); !won || err != nil {
		t.Fatalf("try = %t, %v; want the free lease", won, err)
	}
	if holds, err := l.Holds(ctx); !holds || err != nil {
		t.Fatalf("Holds = %t, %v; want held by host#poller-3", holds, err)
	}
}
