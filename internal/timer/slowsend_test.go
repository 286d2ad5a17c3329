package timer_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// slowBotAPI is a callback whose send Telegram takes at once and answers
// when the test says: the answer reports the request's context as an
// HTTP client does.
type slowBotAPI struct {
	sends   atomic.Int32
	started chan struct{}
	answer  chan struct{}
}

func newSlowBotAPI() *slowBotAPI {
	return &slowBotAPI{started: make(chan struct{}, 8), answer: make(chan struct{})}
}

func (s *slowBotAPI) on(ctx context.Context, _ app.Timer) error {
	s.sends.Add(1)
	s.started <- struct{}{}
	<-s.answer
	return ctx.Err()
}

func TestACallbackRunningWhenTheTicksBudgetEndsIsNotFiredAgain(t *testing.T) {
	clk := newSleepClock(t0)
	api := newSlowBotAPI()
	store := memory.New().For(storage.CoreNamespace)
	e := timer.New(store, clk.Now, timer.WithAfter(clk.After),
		timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) { return api.on, true }))
	if _, err := e.For("m").Set(context.Background(), app.Timer{Key: "r", ChatID: 1, At: t0}); err != nil {
		t.Fatal(err)
	}
	clk.advance(t0.Add(time.Minute))
	budget, over := context.WithCancel(context.Background())
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		_, _ = e.Tick(budget)
	}()
	<-api.started
	over() // the tick's budget ends while Telegram has the send
	close(api.answer)
	<-ticked
	clk.advance(t0.Add(2 * time.Minute))
	tick(t, e)
	if n := api.sends.Load(); n != 1 {
		t.Fatalf("sent %d times, want once", n)
	}
}

func TestACallbackStillRunningPastTimerStaleIsNotFiredAgain(t *testing.T) {
	clk := newSleepClock(t0)
	api := newSlowBotAPI()
	store := memory.New().For(storage.CoreNamespace)
	replica := func() *timer.Engine {
		return timer.New(store, clk.Now, timer.WithAfter(clk.After),
			timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) { return api.on, true }))
	}
	a, b := replica(), replica()
	if _, err := a.For("m").Set(context.Background(), app.Timer{Key: "r", ChatID: 1, At: t0}); err != nil {
		t.Fatal(err)
	}
	clk.advance(t0.Add(time.Minute))
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		_, _ = a.Tick(context.Background())
	}()
	<-api.started
	// Its runner lives on while the clock passes TimerStale and more.
	for !clk.Now().After(t0.Add(time.Minute + 2*app.TimerStale)) {
		clk.advance(clk.sleepers(1, time.Hour))
	}
	clk.sleepers(1, time.Hour) // the runner's last word is written
	tick(t, b)
	close(api.answer)
	<-ticked
	if n := api.sends.Load(); n != 1 {
		t.Fatalf("sent %d times, want once", n)
	}
}
