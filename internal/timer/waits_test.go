package timer_test

import (
	"context"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// A timer of a module MODULES leaves out waits for it a day, holding no
// other timer back, then is dropped.
func TestATimerOfAModuleNotEnabledWaitsADayWithoutHoldingOthersBack(t *testing.T) {
	clk := apptest.NewClock(t0)
	store := memory.New().For(storage.CoreNamespace)
	var c calls
	enabled := map[string]bool{"m": true}
	e := timer.New(store, clk.Now, timer.WithHandler(func(module string) (func(context.Context, app.Timer) error, bool) {
		return c.on, enabled[module]
	}))
	ctx := context.Background()
	if _, err := e.For("off").Set(ctx, app.Timer{Key: "waits", At: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.For("off").Set(ctx, app.Timer{Key: "dropped", At: t0}); err != nil {
		t.Fatal(err)
	}
	set(t, e, "later", t0.Add(50*time.Hour))
	clk.Add(50*time.Hour + time.Minute)
	tick(t, e)
	if got := c.list(); len(got) != 1 || got[0].Key != "later" {
		t.Fatalf("after 50 hours: %+v, want the enabled module's timer", got)
	}
	if got, _ := e.For("off").Keys(ctx, ""); len(got) != 0 {
		t.Errorf("the timers of a module off for a day are kept: %v", got)
	}
}

// A timer set while the module is off fires once the module is back,
// within the day.
func TestATimerWaitsForItsModuleToComeBack(t *testing.T) {
	clk := apptest.NewClock(t0)
	store := memory.New().For(storage.CoreNamespace)
	var c calls
	on := false
	e := timer.New(store, clk.Now, timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) {
		return c.on, on
	}))
	set(t, e, "k", t0)
	clk.Add(time.Hour)
	tick(t, e)
	on = true
	clk.Add(time.Hour)
	tick(t, e)
	if got := c.list(); len(got) != 1 {
		t.Fatalf("fired %d times, want once when the module is back", len(got))
	}
}

// After an outage longer than a tick's catch-up, what is due now fires at
// the first tick, and what fell due in the outage follows.
func TestAfterALongOutageWhatIsDueNowFiresFirst(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	e := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	tick(t, e)
	set(t, e, "old", t0.Add(time.Hour))
	set(t, e, "now", t0.Add(100*time.Hour))
	clk.Set(t0.Add(100*time.Hour + time.Minute))
	tick(t, e)
	if got := c.list(); len(got) != 2 {
		t.Fatalf("the first tick after 100 hours fired %+v, want both (the old hour is in its catch-up)", got)
	}
	set(t, e, "older", t0.Add(200*time.Hour+30*time.Minute))
	set(t, e, "new", t0.Add(260*time.Hour))
	clk.Set(t0.Add(260*time.Hour + time.Minute))
	tick(t, e)
	if got := c.list(); len(got) != 3 || got[2].Key != "new" {
		t.Fatalf("after 160 hours more: %+v, want the one due now first", got)
	}
	for range 5 {
		clk.Add(time.Minute)
		tick(t, e)
	}
	if got := c.list(); len(got) != 4 || got[3].Key != "older" {
		t.Fatalf("then %+v, want the older one too", got)
	}
}
