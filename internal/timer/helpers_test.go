package timer_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// t0 is a minute's start: ticks come at whole minutes, as cron fires them.
var t0 = time.Date(2027, 1, 31, 9, 0, 0, 0, time.UTC)

// calls records the callbacks a module heard.
type calls struct {
	mu  sync.Mutex
	got []app.Timer
	err error // what the callback returns
}

func (c *calls) on(_ context.Context, t app.Timer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, t)
	return c.err
}

func (c *calls) list() []app.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]app.Timer(nil), c.got...)
}

func (c *calls) fail(err error) { c.mu.Lock(); c.err = err; c.mu.Unlock() }

// engine is an engine over store for module "m" calling back into c.
func engine(store storage.KVStore, clk *apptest.Clock, f func(context.Context, app.Timer) error) *timer.Engine {
	return timer.New(store, clk.Now, timer.WithHandler(func(module string) (func(context.Context, app.Timer) error, bool) {
		return f, module == "m" && f != nil
	}))
}

func tick(t *testing.T, e *timer.Engine) timer.TickStats {
	t.Helper()
	st, err := e.Tick(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func set(t *testing.T, e *timer.Engine, key string, at time.Time) app.Timer {
	t.Helper()
	tm, err := e.For("m").Set(context.Background(), app.Timer{Key: key, ChatID: -5, At: at, Payload: []byte("hi")})
	if err != nil {
		t.Fatal(err)
	}
	return tm
}
