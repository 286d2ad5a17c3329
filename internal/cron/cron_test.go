package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// clock is a settable clock shared by the apps of a test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// jobModule registers one job whose behaviour the test controls.
func jobModule(schedule string, run func(ctx context.Context) error) app.Factory {
	return slotJob(schedule, func(ctx context.Context, _ app.CronRun) error { return run(ctx) })
}

// slotJob is jobModule's job seeing its run.
func slotJob(schedule string, run func(ctx context.Context, r app.CronRun) error) app.Factory {
	return app.Factory{Name: "jobs", Jobs: []string{"job"}, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "jobs", Crons: []app.Cron{{Name: "job", Schedule: schedule, Handler: run}}}, nil
	}}
}

// A job is handed the slot it runs for, a whole minute, whenever it runs:
// on time, late, or by hand for an earlier slot. The clock is only when.
func TestAJobIsHandedTheSlotItRunsFor(t *testing.T) {
	clk := &clock{t: slot.Add(22*time.Hour + 51*time.Minute)}
	var got []time.Time
	d := newDispatcher(t, memory.New(), clk, slotJob("0 1 * * *", func(_ context.Context, r app.CronRun) error {
		got = append(got, r.Slot)
		return nil
	}))
	for _, at := range []time.Time{slot.Add(37 * time.Second), slot.Add(24 * time.Hour)} {
		if out, err := d.Dispatch(t.Context(), "job", at); out != Ran || err != nil {
			t.Fatalf("Dispatch(%s) = %s, %v", at, out, err)
		}
	}
	if want := []time.Time{slot, slot.Add(24 * time.Hour)}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the job saw slots %v, want %v", got, want)
	}
}

// newDispatcher runs f's jobs over store, as one runtime would; every log
// line it writes must name each key once.
func newDispatcher(t *testing.T, store storage.KVProvider, clk *clock, f app.Factory) *Dispatcher {
	t.Helper()
	logs := &testenv.Buffer{}
	t.Cleanup(func() { testenv.CheckLogLines(t, "the dispatcher", logs.String()) })
	client, _ := telegram.New("1:x")
	a, err := core.New(store, client, core.WithModules([]app.Factory{f}), core.WithClock(clk.now))
	if err != nil {
		t.Fatal(err)
	}
	return NewDispatcher(a.Registry(), store.For(storage.CoreNamespace), slog.New(slog.NewJSONHandler(logs, nil)), clk.now)
}

var slot = time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)

func TestASlotRunsToSuccessOnce(t *testing.T) {
	clk := &clock{t: slot}
	var runs atomic.Int32
	d := newDispatcher(t, memory.New(), clk, jobModule("0 1 * * *", func(context.Context) error { runs.Add(1); return nil }))
	ctx := t.Context()

	steps := []struct {
		name string
		at   time.Time
		want Outcome
	}{
		{"the first fire runs", slot, Ran},
		{"a second fire of the slot is skipped", slot, Skipped},
		{"Scheduler's late retry of the slot is skipped", slot, Skipped},
		{"the next day's slot runs", slot.Add(24 * time.Hour), Ran},
	}
	for _, s := range steps {
		got, err := d.Dispatch(ctx, "job", s.at)
		if err != nil || got != s.want {
			t.Fatalf("%s: Dispatch = %q, %v; want %q", s.name, got, err, s.want)
		}
	}
	if runs.Load() != 2 {
		t.Fatalf("job ran %d times, want 2", runs.Load())
	}
	if _, err := d.Dispatch(ctx, "nope", slot); !errors.Is(err, ErrUnknownJob) {
		t.Fatalf("unknown job: %v", err)
	}
}

func TestAFailedOrCrashedSlotCanBeClaimedAgain(t *testing.T) {
	clk := &clock{t: slot}
	var mode atomic.Value
	mode.Store("fail")
	block := make(chan struct{})
	d := newDispatcher(t, memory.New(), clk, jobModule("0 1 * * *", func(ctx context.Context) error {
		switch mode.Load() {
		case "fail":
			return errors.New("upstream down")
		case "panic":
			panic("bad data")
		}
		return nil
	}))
	ctx := t.Context()
	if _, err := d.Dispatch(ctx, "job", slot); err == nil || !strings.Contains(err.Error(), "upstream down") {
		t.Fatalf("a failing job must report its error (so Scheduler retries): %v", err)
	}
	mode.Store("panic")
	if _, err := d.Dispatch(ctx, "job", slot); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("a panicking job must be recovered and reported: %v", err)
	}
	mode.Store("ok")
	if got, err := d.Dispatch(ctx, "job", slot); got != Ran || err != nil {
		t.Fatalf("retry after failures = %q, %v; want ran", got, err)
	}
	close(block)

	// A crashed run leaves its claim "running"; once stale, it is free.
	key := slotKey("job", slot.Add(time.Hour))
	crashed := `{"job":"job","scheduled":` + itoa(slot.Add(time.Hour).Unix()) + `,"state":"running","attempts":1,"at":` + itoa(clk.now().UnixNano()) + `}`
	if err := d.core.Put(ctx, key, []byte(crashed)); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Dispatch(ctx, "job", slot.Add(time.Hour)); got != Skipped {
		t.Fatalf("a fresh running claim must be respected, got %q", got)
	}
	clk.add(2*app.DefaultCronTimeout + time.Second)
	if got, err := d.Dispatch(ctx, "job", slot.Add(time.Hour)); got != Ran || err != nil {
		t.Fatalf("a stale claim must be taken over: %q, %v", got, err)
	}
}

// Fires of one slot race from two runtimes over one store: first of a
// slot never claimed (an insert), then of the slot after its run failed (a
// swap from the failed record). On every backend the job runs once each.
func TestRacingFiresFromTwoRuntimesRunTheSlotOnce(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, store storage.KVProvider) {
		clk := &clock{t: slot}
		var runs atomic.Int32
		var fail atomic.Bool
		f := jobModule("0 1 * * *", func(context.Context) error {
			runs.Add(1)
			if fail.Load() {
				return errors.New("the job failed")
			}
			return nil
		})
		lambda, container := newDispatcher(t, store, clk, f), newDispatcher(t, store, clk, f)
		race := func(at time.Time) {
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range 16 {
				d := lambda
				if i%2 == 1 {
					d = container
				}
				wg.Go(func() {
					<-start
					_, _ = d.Dispatch(context.Background(), "job", at)
				})
			}
			close(start)
			wg.Wait()
		}
		race(slot)
		if n := runs.Swap(0); n != 1 {
			t.Fatalf("job ran %d times across 16 racing fires of a new slot, want 1", n)
		}
		if !backendtest.AtomicValueCAS(t, store) {
			// The re-claim of a failed slot is a value-matched swap: on
			// FerretDB a racing fire runs it again (#28, open).
			t.Skip(backendtest.FerretDBLimit)
		}
		next := slot.Add(24 * time.Hour)
		clk.add(24 * time.Hour)
		fail.Store(true)
		if _, err := lambda.Dispatch(context.Background(), "job", next); err == nil {
			t.Fatal("the failing run must report its error")
		}
		fail.Store(false)
		runs.Store(0)
		race(next)
		if n := runs.Load(); n != 1 {
			t.Fatalf("job ran %d times across 16 racing fires of a failed slot, want 1", n)
		}
	})
}

func TestEachRunHasItsJobsTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		timeout  time.Duration
		min, max time.Duration
	}{
		{"the default", 0, app.DefaultCronTimeout - time.Second, app.DefaultCronTimeout},
		{"a job's own, longer", 10 * time.Minute, 10*time.Minute - time.Second, 10 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &clock{t: slot}
			var deadline time.Duration
			d := newDispatcher(t, memory.New(), clk, timedJob(tc.timeout, func(ctx context.Context) error {
				dl, ok := ctx.Deadline()
				if !ok {
					return errors.New("no deadline")
				}
				deadline = time.Until(dl)
				return nil
			}))
			if _, err := d.Dispatch(context.Background(), "job", slot); err != nil {
				t.Fatal(err)
			}
			if deadline < tc.min || deadline > tc.max {
				t.Fatalf("job deadline in %v, want %v", deadline, tc.max)
			}
		})
	}
}

func TestALongJobsRunningClaimIsNotTakenOverBeforeTwiceItsTimeout(t *testing.T) {
	clk := &clock{t: slot}
	d := newDispatcher(t, memory.New(), clk, timedJob(10*time.Minute, func(context.Context) error { return nil }))
	ctx := t.Context()
	running := `{"job":"job","scheduled":` + itoa(slot.Unix()) + `,"state":"running","attempts":1,"at":` + itoa(clk.now().UnixNano()) + `}`
	if err := d.core.Put(ctx, slotKey("job", slot), []byte(running)); err != nil {
		t.Fatal(err)
	}
	clk.add(2*app.DefaultCronTimeout + time.Second) // stale for a default job, not for this one
	if got, _ := d.Dispatch(ctx, "job", slot); got != Skipped {
		t.Fatalf("a 10-minute job's claim 2 minutes old was taken over: %q", got)
	}
	clk.add(20 * time.Minute)
	if got, err := d.Dispatch(ctx, "job", slot); got != Ran || err != nil {
		t.Fatalf("a claim older than twice the job's timeout must be taken over: %q, %v", got, err)
	}
}

func TestATimeoutAboveTheMaximumIsRefusedAtStart(t *testing.T) {
	client, _ := telegram.New("1:x")
	_, err := core.New(memory.New(), client, core.WithModules([]app.Factory{timedJob(app.MaxCronTimeout+time.Second, func(context.Context) error { return nil })}))
	if err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Fatalf("core.New = %v, want a timeout error", err)
	}
}

// timedJob is jobModule's daily job with its own timeout.
func timedJob(timeout time.Duration, run func(ctx context.Context) error) app.Factory {
	return app.Factory{Name: "jobs", Jobs: []string{"job"}, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "jobs", Crons: []app.Cron{{Name: "job", Schedule: "0 1 * * *", Handler: func(ctx context.Context, _ app.CronRun) error { return run(ctx) }, Timeout: timeout}}}, nil
	}}
}

func TestTheSchedulerFiresAndStopWaitsForTheJobInFlight(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	var finished atomic.Bool
	d := newDispatcher(t, memory.New(), &clock{t: slot}, jobModule("* * * * *", func(context.Context) error {
		select {
		case started <- struct{}{}:
		default:
			return nil // later fires of the test's every-second schedule
		}
		<-release
		finished.Store(true)
		return nil
	}))
	s := NewScheduler(d, withSecondsForTest())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()

	<-started // the job is running
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned while a job was still running")
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Fatal("Run returned before the job finished")
	}
}

func TestAStopCutsARunPastTheGraceAndRecordsItsSlotFailed(t *testing.T) {
	started := make(chan struct{}, 1)
	var cut atomic.Bool
	store := memory.New()
	d := newDispatcher(t, store, &clock{t: slot}, jobModule("* * * * *", func(ctx context.Context) error {
		select {
		case started <- struct{}{}:
		default:
			return nil // later fires of the test's every-second schedule
		}
		<-ctx.Done() // a long push, still going at the stop
		cut.Store(true)
		return ctx.Err()
	}))
	s := NewScheduler(d, withSecondsForTest(), WithRunGrace(0))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-testenv.Context(t).Done():
		t.Fatal("Run waited for a run past the grace")
	}
	if !cut.Load() {
		t.Fatal("the run's context was not cancelled")
	}
	core := store.For(storage.CoreNamespace)
	keys, err := core.List(t.Context(), "cron:job:")
	if err != nil || len(keys) == 0 {
		t.Fatalf("slot records %v, %v", keys, err)
	}
	var failed bool
	for _, k := range keys {
		var rec slotRecord
		if err := core.GetJSON(t.Context(), k, &rec); err != nil {
			t.Fatal(err)
		}
		failed = failed || rec.State == "failed"
		if rec.State == "running" {
			t.Fatalf("slot %s left running: a restart within the stale mark would skip it", k)
		}
	}
	if !failed {
		t.Fatal("the cut run's slot is not recorded failed, so no start would catch it up")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestAFireForADisabledModuleIsASkipAndAnUnknownNameAnError(t *testing.T) {
	jobs := jobModule("0 1 * * *", func(context.Context) error { t.Error("a disabled module's job ran"); return nil })
	other := app.Factory{Name: "other", New: func(app.Deps) (*app.Module, error) { return &app.Module{Name: "other"}, nil }}
	store := memory.New()
	client, _ := telegram.New("1:x")
	a, err := core.New(store, client, core.WithModules([]app.Factory{jobs, other}, "other"))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDispatcher(a.Registry(), store.For(storage.CoreNamespace), slog.New(slog.DiscardHandler), time.Now)
	if got, err := d.Dispatch(t.Context(), "job", slot); got != Disabled || err != nil {
		t.Fatalf("a fire for a disabled module's job = %q, %v; want %q and no error (no retry, no dead letter)", got, err, Disabled)
	}
	if _, err := d.Dispatch(t.Context(), "no_such_job", slot); !errors.Is(err, ErrUnknownJob) {
		t.Fatalf("a job no module has = %v, want ErrUnknownJob", err)
	}
}
