package timer_test

import (
	"context"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// Two processes (Lambda environments, replicas) never tick at once, so
// that the sends of one tick are paced by one process: a tick that finds
// another running does nothing, and the next one after it fires the rest.
func TestOneTickRunsAtATimeAcrossProcesses(t *testing.T) {
	clk := newSleepClock(t0)
	api := newSlowBotAPI()
	store := memory.New().For(storage.CoreNamespace)
	var c calls
	a := timer.New(store, clk.Now, timer.WithAfter(clk.After),
		timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) { return api.on, true }))
	b := engine(store, clk.Clock, c.on)
	ctx := context.Background()
	if _, err := a.For("m").Set(ctx, app.Timer{Key: "first", ChatID: 1, At: t0}); err != nil {
		t.Fatal(err)
	}
	clk.advance(t0.Add(time.Minute))
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		_, _ = a.Tick(ctx)
	}()
	<-api.started
	if _, err := a.For("m").Set(ctx, app.Timer{Key: "second", ChatID: 1, At: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if st := tick(t, b); !st.Busy || len(c.list()) != 0 {
		t.Fatalf("a tick while another runs: %+v, fired %d; want busy, nothing fired", st, len(c.list()))
	}
	close(api.answer)
	<-ticked
	if st := tick(t, b); st.Busy || len(c.list()) != 1 {
		t.Fatalf("the tick after: %+v, fired %d; want the second timer fired", st, len(c.list()))
	}
}
