package timer_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

func TestATimerFiresOnceAtOrAfterItsTimeWithinAMinute(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	want := set(t, e, "u1:a", t0.Add(90*time.Second))
	for _, at := range []time.Duration{0, time.Minute} { // before its second
		clk.Set(t0.Add(at))
		tick(t, e)
	}
	if got := c.list(); len(got) != 0 {
		t.Fatalf("fired early: %+v", got)
	}
	for range 3 {
		clk.Add(time.Minute)
		tick(t, e)
	}
	got := c.list()
	if len(got) != 1 || got[0].ID != want.ID || got[0].Attempt != 1 || string(got[0].Payload) != "hi" || got[0].ChatID != -5 {
		t.Fatalf("callbacks %+v, want one of %+v", got, want)
	}
	if left, _ := e.For("m").List(context.Background(), ""); len(left) != 0 {
		t.Errorf("a fired timer is still listed: %+v", left)
	}
}

func TestTwoReplicasTickingTheSameMinuteFireEachTimerOnce(t *testing.T) {
	clk := apptest.NewClock(t0)
	store := memory.New().For(storage.CoreNamespace)
	var c calls
	a, b := engine(store, clk, c.on), engine(store, clk, c.on)
	for i := range 50 {
		set(t, a, fmt.Sprintf("k%02d", i), t0.Add(time.Duration(i)*time.Second))
	}
	clk.Set(t0.Add(time.Minute))
	var wg sync.WaitGroup
	for range 2 {
		for _, e := range []func(){func() { tick(t, a) }, func() { tick(t, b) }} {
			wg.Go(e)
		}
	}
	wg.Wait()
	seen := map[int64]int{}
	for _, tm := range c.list() {
		seen[tm.ID]++
	}
	if len(seen) != 50 {
		t.Fatalf("%d timers fired, want 50", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("timer %d fired %d times", id, n)
		}
	}
}

func TestAStoreOutageAtTheDueMinuteFiresLateThenOnce(t *testing.T) {
	clk := apptest.NewClock(t0)
	sw := storagetest.NewSwitch(memory.New())
	var c calls
	e := engine(sw.For(storage.CoreNamespace), clk, c.on)
	set(t, e, "k", t0.Add(10*time.Second))
	clk.Set(t0.Add(time.Minute))
	sw.SetDown(true)
	if _, err := e.Tick(context.Background()); !errors.Is(err, storagetest.ErrDown) {
		t.Fatalf("a tick in an outage returned %v, want the outage", err)
	}
	sw.SetDown(false)
	for range 3 {
		clk.Add(time.Minute)
		tick(t, e)
	}
	if got := c.list(); len(got) != 1 {
		t.Fatalf("fired %d times after the outage, want once", len(got))
	}
}

func TestAFailedCallbackIsTriedAgainAtTheNextTick(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	set(t, e, "k", t0)
	c.fail(errors.New("telegram is down"))
	clk.Add(time.Minute)
	tick(t, e)
	c.fail(nil)
	clk.Add(time.Minute)
	tick(t, e)
	clk.Add(time.Minute)
	tick(t, e)
	got := c.list()
	if len(got) != 2 || got[0].Attempt != 1 || got[1].Attempt != 2 || got[0].ID != got[1].ID {
		t.Fatalf("callbacks %+v, want attempts 1 (failed) and 2", got)
	}
}

func TestACallbackFailingForADayIsDroppedAndNotTriedAgain(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	set(t, e, "k", t0)
	c.fail(errors.New("always"))
	clk.Add(25 * time.Hour)
	tick(t, e)
	clk.Add(time.Minute)
	tick(t, e)
	if got := c.list(); len(got) != 1 {
		t.Fatalf("%d callbacks, want 1 (then dropped)", len(got))
	}
}

func TestARunnerThatDiedIsTakenOverAfterTheStaleMarkNotBefore(t *testing.T) {
	clk := apptest.NewClock(t0)
	sw := storagetest.NewSwitch(memory.New())
	store := sw.For(storage.CoreNamespace)
	var first calls
	dies := func(ctx context.Context, tm app.Timer) error {
		_ = first.on(ctx, tm)
		sw.SetDown(true) // the runner loses the store: its end is never recorded
		return errors.New("lost")
	}
	a := engine(store, clk, dies)
	set(t, a, "k", t0)
	clk.Add(time.Minute)
	_, _ = a.Tick(context.Background())
	sw.SetDown(false)
	var c calls
	b := engine(store, clk, c.on)
	tick(t, b)
	if len(c.list()) != 0 {
		t.Fatal("a live run was taken over")
	}
	clk.Add(app.TimerStale)
	tick(t, b)
	got := c.list()
	if len(first.list()) != 1 || len(got) != 1 || got[0].Attempt != 2 {
		t.Fatalf("callbacks %+v after %+v, want one, attempt 2", got, first.list())
	}
}
