package timer_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

func TestACancelledTimerNeverFires(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	set(t, e, "k", t0.Add(time.Minute))
	got, err := e.For("m").Cancel(context.Background(), "k")
	if err != nil || got != app.Cancelled {
		t.Fatalf("Cancel = %v, %v; want cancelled", got, err)
	}
	for range 3 {
		clk.Add(time.Minute)
		tick(t, e)
	}
	if len(c.list()) != 0 {
		t.Fatal("a cancelled timer fired")
	}
	if got, _ := e.For("m").Cancel(context.Background(), "k"); got != app.NoTimer {
		t.Errorf("a second Cancel = %v, want no timer", got)
	}
}

// A Cancel pressed while the callback runs is told it is too late, and the
// callback's work stands: exactly one of the two wins.
func TestACancelDuringTheCallbackIsTooLate(t *testing.T) {
	clk := apptest.NewClock(t0)
	store := memory.New().For(storage.CoreNamespace)
	var outcome app.CancelOutcome
	var e interface {
		For(string) app.Timers
	}
	during := func(ctx context.Context, _ app.Timer) error {
		var err error
		outcome, err = e.For("m").Cancel(ctx, "k")
		return err
	}
	eng := engine(store, clk, during)
	e = eng
	set(t, eng, "k", t0)
	clk.Add(time.Minute)
	tick(t, eng)
	if outcome != app.TooLate {
		t.Fatalf("Cancel during the callback = %v, want too late", outcome)
	}
	if got, _ := eng.For("m").Cancel(context.Background(), "k"); got != app.NoTimer {
		t.Errorf("Cancel after the fire = %v, want no timer", got)
	}
}

func TestSetRefusesAKeyPendingAndBadTimers(t *testing.T) {
	clk := apptest.NewClock(t0)
	e := engine(memory.New().For(storage.CoreNamespace), clk, nil)
	tm := e.For("m")
	ctx := context.Background()
	set(t, e, "k", t0.Add(time.Hour))
	cases := []struct {
		name string
		t    app.Timer
		want error
	}{
		{"a key pending is refused", app.Timer{Key: "k", At: t0.Add(time.Hour)}, app.ErrTimerExists},
		{"a key with a slash is refused", app.Timer{Key: "a/b", At: t0}, app.ErrTimerInvalid},
		{"an empty key is refused", app.Timer{At: t0}, app.ErrTimerInvalid},
		{"a payload over the limit is refused", app.Timer{Key: "p", At: t0, Payload: make([]byte, app.MaxTimerPayload+1)}, app.ErrTimerInvalid},
		{"no time is refused", app.Timer{Key: "z"}, app.ErrTimerInvalid},
		{"a time too far ahead is refused", app.Timer{Key: "far", At: t0.Add(app.MaxTimerAhead + time.Hour)}, app.ErrTimerInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := tm.Set(ctx, c.t); !errors.Is(err, c.want) {
				t.Errorf("Set = %v, want %v", err, c.want)
			}
		})
	}
}

func TestListFindsPendingTimersByKeyPrefix(t *testing.T) {
	clk := apptest.NewClock(t0)
	e := engine(memory.New().For(storage.CoreNamespace), clk, nil)
	ctx := context.Background()
	set(t, e, "u1:a", t0.Add(time.Hour))
	set(t, e, "u1:b", t0.Add(2*time.Hour))
	set(t, e, "u2:a", t0.Add(time.Hour))
	if _, err := e.For("other").SetAfter(ctx, time.Minute, app.Timer{Key: "u1:x"}); err != nil {
		t.Fatal(err)
	}
	got, err := e.For("m").List(ctx, "u1:")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Key != "u1:a" || got[1].Key != "u1:b" || !got[1].At.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("List(u1:) = %+v", got)
	}
}

func TestAChatMovedToASupergroupTakesItsTimers(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	ctx := context.Background()
	set(t, e, "k", t0.Add(time.Minute)) // chat -5
	for range 2 {                       // told twice: the same result
		if err := e.ChatChanged(ctx, app.ChatChange{ChatID: -5, MovedTo: -1005}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := e.For("m").List(ctx, ""); len(got) != 1 || got[0].ChatID != -1005 {
		t.Fatalf("after the move: %+v", got)
	}
	clk.Add(2 * time.Minute)
	tick(t, e)
	if got := c.list(); len(got) != 1 || got[0].ChatID != -1005 {
		t.Fatalf("fired %+v, want once in the supergroup", got)
	}
}

func TestAGoneChatsTimersAreDropped(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	ctx := context.Background()
	set(t, e, "k", t0.Add(time.Minute))
	if err := e.ChatChanged(ctx, app.ChatChange{ChatID: -5}); err != nil {
		t.Fatal(err)
	}
	clk.Add(2 * time.Minute)
	tick(t, e)
	if len(c.list()) != 0 {
		t.Fatal("a gone chat's timer fired")
	}
	if got, _ := e.For("m").Cancel(ctx, "k"); got != app.NoTimer {
		t.Errorf("Cancel = %v, want no timer", got)
	}
}

// Cancel and the tick race for the same timer many times: each time
// exactly one wins, and a confirmed Cancel means no callback.
func TestCancelRacingTheFireIsDecidedOnce(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	ctx := context.Background()
	for i := range 200 {
		before := len(c.list())
		set(t, e, "k", clk.Now())
		clk.Add(time.Minute)
		outcome := make(chan app.CancelOutcome)
		go func() {
			o, err := e.For("m").Cancel(ctx, "k")
			if err != nil {
				t.Error(err)
			}
			outcome <- o
		}()
		tick(t, e)
		o := <-outcome
		fired := len(c.list()) - before
		if (o == app.Cancelled) == (fired == 1) || fired > 1 {
			t.Fatalf("round %d: Cancel said %v and the callback ran %d times", i, o, fired)
		}
	}
}

// A send that finds the chat moved tells the engine while the callback
// runs: the running timer is left to end, and is not fired again.
func TestAChatMovedWhileItsTimerFiresIsNotFiredAgain(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	var e interface {
		ChatChanged(context.Context, app.ChatChange) error
	}
	moving := func(ctx context.Context, tm app.Timer) error {
		if err := e.ChatChanged(ctx, app.ChatChange{ChatID: tm.ChatID, MovedTo: -1005}); err != nil {
			return err
		}
		return c.on(ctx, tm)
	}
	eng := engine(memory.New().For(storage.CoreNamespace), clk, moving)
	e = eng
	set(t, eng, "k", t0)
	for range 5 {
		clk.Add(time.Minute)
		tick(t, eng)
	}
	if got := c.list(); len(got) != 1 {
		t.Fatalf("fired %d times, want once", len(got))
	}
}
