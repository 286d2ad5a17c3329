package cron

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// schedRig is a scheduler over a memory store with a clock that the
// scheduler's waits move forward, so hours of retries take no time.
type schedRig struct {
	clk   *clock
	core  storage.KVStore
	d     *Dispatcher
	s     *Scheduler
	waits []time.Duration
	mu    sync.Mutex
	logs  *testenv.Buffer
}

func newSchedRig(t *testing.T, at time.Time, f app.Factory) *schedRig {
	t.Helper()
	r := &schedRig{clk: &clock{t: at}, logs: &testenv.Buffer{}}
	t.Cleanup(func() { testenv.CheckLogLines(t, "the scheduler", r.logs.String()) })
	store := memory.New()
	client, _ := telegram.New("1:x")
	a, err := core.New(store, client, core.WithModules([]app.Factory{f}), core.WithClock(r.clk.now))
	if err != nil {
		t.Fatal(err)
	}
	r.core = store.For(storage.CoreNamespace)
	r.d = NewDispatcher(a.Registry(), r.core, slog.New(slog.NewJSONHandler(r.logs, nil)), r.clk.now)
	r.s = NewScheduler(r.d, WithSchedulerClock(r.clk.now), WithSchedulerWait(func(ctx context.Context, d time.Duration) error {
		r.mu.Lock()
		r.waits = append(r.waits, d)
		r.mu.Unlock()
		r.clk.add(d)
		return ctx.Err()
	}))
	return r
}

// runUntil runs the scheduler until done is closed.
func (r *schedRig) runUntil(t *testing.T, done <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error, 1)
	go func() { stopped <- r.s.Run(ctx) }()
	select {
	case <-done:
	case <-testenv.Context(t).Done():
		t.Fatal("the scheduler never got there")
	}
	cancel()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

func TestAStartCatchesUpAMissedSlotOnce(t *testing.T) {
	// The container was down across 01:00 and starts at 04:00: the daily
	// job's 6 h catch-up window still covers its slot.
	ran := make(chan time.Time, 4)
	f := jobModule("0 1 * * *", func(context.Context) error { ran <- time.Time{}; return nil })
	r := newSchedRig(t, slot.Add(3*time.Hour), f)
	r.runUntil(t, chanOf(ran))
	second := NewScheduler(r.d, WithSchedulerClock(r.clk.now))
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // a second start catches up nothing: the slot is done
	_ = second.Run(ctx)
	if n := len(ran); n != 0 {
		t.Fatalf("the slot ran %d more times, want once in all", n)
	}
	if !strings.Contains(r.logs.String(), "cron caught up a missed slot") {
		t.Fatalf("the catch-up is not logged: %s", r.logs)
	}
}

func TestASlotOutsideItsCatchUpWindowIsNotRun(t *testing.T) {
	var runs atomic.Int32
	f := jobModule("0 1 * * *", func(context.Context) error { runs.Add(1); return nil })
	r := newSchedRig(t, slot.Add(7*time.Hour), f) // past the 6 h window
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_ = r.s.Run(ctx)
	if runs.Load() != 0 {
		t.Fatal("a slot 7 h late ran")
	}
}

func TestAFailedSlotIsTriedAgainWithBackOffAndRecorded(t *testing.T) {
	var tries atomic.Int32
	ok := make(chan struct{})
	f := jobModule("0 1 * * *", func(context.Context) error {
		if tries.Add(1) < 3 {
			return errors.New("esports API down")
		}
		close(ok)
		return nil
	})
	r := newSchedRig(t, slot.Add(30*time.Second), f)
	r.runUntil(t, ok)
	r.mu.Lock()
	waits := append([]time.Duration(nil), r.waits...)
	r.mu.Unlock()
	if len(waits) != 2 || waits[0] != time.Minute || waits[1] != 2*time.Minute {
		t.Fatalf("waits between tries %v, want 1m then 2m", waits)
	}
	if n := strings.Count(r.logs.String(), `"level":"ERROR","msg":"cron failed"`); n != 2 {
		t.Fatalf("%d Error lines for the 2 failed runs: %s", n, r.logs)
	}
	st, err := Statuses(t.Context(), r.core, nil, time.Time{})
	if err != nil || len(st) != 1 {
		t.Fatalf("statuses %+v, %v", st, err)
	}
	s := st[0]
	if s.Job != "job" || s.Attempts != 3 || s.LastSuccess == nil || !s.LastSuccess.Slot.Equal(slot) ||
		s.LastFailure == nil || s.LastFailure.Error == "" || !strings.Contains(s.LastFailure.Error, "esports API down") ||
		!s.NextFire.Equal(slot.Add(24*time.Hour)) {
		t.Fatalf("status %+v (success %+v, failure %+v)", s, s.LastSuccess, s.LastFailure)
	}
}

func TestASlotIsGivenUpWhenItsRetryWindowIsOver(t *testing.T) {
	var tries atomic.Int32
	f := jobModule("0 1 * * *", func(context.Context) error { tries.Add(1); return errors.New("still down") })
	r := newSchedRig(t, slot.Add(30*time.Second), f)
	gaveUp := make(chan struct{})
	go func() {
		_ = testenv.Eventually(time.Minute, func() error {
			if !strings.Contains(r.logs.String(), "cron slot given up") {
				return errors.New("not yet")
			}
			return nil
		})
		close(gaveUp)
	}()
	r.runUntil(t, gaveUp)
	// 1+2+4+8+16 = 31 min of waits fit in the hour: six tries in all.
	if n := tries.Load(); n != 6 {
		t.Fatalf("%d tries, want 6 (the first and five retries within an hour)", n)
	}
}

func chanOf(c <-chan time.Time) <-chan struct{} {
	done := make(chan struct{})
	go func() { <-c; close(done) }()
	return done
}
