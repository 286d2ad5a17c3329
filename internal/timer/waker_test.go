package timer_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// heard is a callback that records the clock's time of each call.
type heard struct {
	mu  sync.Mutex
	clk *sleepClock
	at  map[string][]time.Time
}

func (h *heard) on(_ context.Context, t app.Timer) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.at == nil {
		h.at = map[string][]time.Time{}
	}
	h.at[t.Key] = append(h.at[t.Key], h.clk.Now())
	return nil
}

func (h *heard) of(key string) []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Time(nil), h.at[key]...)
}

func wakingEngine(store storage.KVStore, clk *sleepClock, h *heard) *timer.Engine {
	return timer.New(store, clk.Now, timer.WithAfter(clk.After),
		timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) { return h.on, true }))
}

// wake runs e's Wake until the test ends.
func wake(t *testing.T, e *timer.Engine) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.Wake(ctx, func() bool {
			st, err := e.Tick(ctx)
			if err != nil {
				t.Error(err)
			}
			return !st.Busy
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
}

// runUntil moves the clock from sleep to sleep of n wakers (a waker
// sleeps WakePoll at most; a running claim's renewal, longer) until the
// callbacks of key reached want, and returns them.
func runUntil(clk *sleepClock, h *heard, n int, key string, want int, limit time.Time) []time.Time {
	for {
		at := clk.sleepers(n, timer.WakePoll)
		if got := h.of(key); len(got) >= want || at.After(limit) {
			return got
		}
		clk.advance(at)
	}
}

func TestATimerSetForThirtySecondsFiresAtItsSecond(t *testing.T) {
	clk := newSleepClock(t0.Add(12 * time.Second))
	h := &heard{clk: clk}
	e := wakingEngine(memory.New().For(storage.CoreNamespace), clk, h)
	if _, err := e.For("m").SetAfter(context.Background(), 30*time.Second, app.Timer{Key: "soon", ChatID: 1}); err != nil {
		t.Fatal(err)
	}
	wake(t, e)
	got := runUntil(clk, h, 1, "soon", 1, t0.Add(2*time.Minute))
	if want := t0.Add(42 * time.Second); len(got) != 1 || !got[0].Equal(want) {
		t.Fatalf("fired at %v, want once at %v", got, want)
	}
}

func TestATimerSetWhileTheWakerSleepsForALaterOneIsSeenAtOnce(t *testing.T) {
	clk := newSleepClock(t0)
	h := &heard{clk: clk}
	e := wakingEngine(memory.New().For(storage.CoreNamespace), clk, h)
	ctx := context.Background()
	if _, err := e.For("m").SetAfter(ctx, 4*time.Second, app.Timer{Key: "later", ChatID: 1}); err != nil {
		t.Fatal(err)
	}
	wake(t, e)
	if until := clk.sleepers(1, timer.WakePoll); !until.Equal(t0.Add(4 * time.Second)) {
		t.Fatalf("the waker sleeps until %v, want the later timer's %v", until, t0.Add(4*time.Second))
	}
	clk.forget() // the poked sleep is never waited on again
	if _, err := e.For("m").SetAfter(ctx, 2*time.Second, app.Timer{Key: "sooner", ChatID: 1}); err != nil {
		t.Fatal(err)
	}
	if until := clk.sleepers(1, timer.WakePoll); !until.Equal(t0.Add(2 * time.Second)) {
		t.Fatalf("after the Set, the waker sleeps until %v, want the new timer's %v", until, t0.Add(2*time.Second))
	}
	got := runUntil(clk, h, 1, "sooner", 1, t0.Add(time.Minute))
	if want := t0.Add(2 * time.Second); len(got) != 1 || !got[0].Equal(want) {
		t.Fatalf("fired at %v, want once at %v", got, want)
	}
}

func TestTwoReplicasWakingForATimerFireItOnce(t *testing.T) {
	clk := newSleepClock(t0)
	h := &heard{clk: clk}
	store := memory.New().For(storage.CoreNamespace)
	a, b := wakingEngine(store, clk, h), wakingEngine(store, clk, h)
	if _, err := a.For("m").SetAfter(context.Background(), 30*time.Second, app.Timer{Key: "once", ChatID: 1}); err != nil {
		t.Fatal(err)
	}
	wake(t, a)
	wake(t, b)
	runUntil(clk, h, 2, "once", 1, t0.Add(time.Minute))
	// Both woke at its second and ticked; a minute on, still once.
	got := runUntil(clk, h, 2, "once", 2, t0.Add(time.Minute))
	if want := t0.Add(30 * time.Second); len(got) != 1 || !got[0].Equal(want) {
		t.Fatalf("fired at %v, want once at %v", got, want)
	}
}
