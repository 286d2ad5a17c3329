package timer

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// renewEvery is how often a runner renews its claim while the callback
// runs: well within app.TimerStale, so a live runner's claim never reads
// as a dead one's, however long its callback takes.
const renewEvery = app.TimerStale / 4

// run runs the callback of the timer held at dk (its record as held) and
// returns the record as the runner last wrote it and the callback's error. The
// callback has its own budget, app.TimerRunTimeout, not what is left of
// the tick's: a send Telegram has taken is not cut off (and tried again)
// because the tick ran out. While it runs, the claim is renewed.
func (e *Engine) run(ctx context.Context, dk string, held []byte, r record, f func(context.Context, app.Timer) error) ([]byte, error) {
	ctx = context.WithoutCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.call(ctx, f, r.timer()) }()
	for {
		select {
		case err := <-done:
			return held, err
		case <-e.after(renewEvery):
			renewed := r
			renewed.At = e.now().UnixNano()
			next := renewed.encode()
			err := e.store.CompareAndSwap(ctx, dk, held, next)
			switch {
			case err == nil:
				held = next
			case errors.Is(err, storage.ErrConflict):
				// Not ours any more (the record changed under us): its
				// end is not ours to write either; the finish conflicts.
			default:
				e.log.Warn("timer claim not renewed: tried again", "module", r.Module, "key", r.Key, "err", err)
			}
		}
	}
}

// call runs a callback with its own timeout, a panic turned into an error.
func (e *Engine) call(ctx context.Context, f func(context.Context, app.Timer) error, t app.Timer) (err error) {
	ctx, cancel := context.WithTimeout(ctx, app.TimerRunTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("timer callback panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(ctx, t)
}
