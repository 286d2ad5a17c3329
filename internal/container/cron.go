package container

import (
	"context"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// runCron runs the in-process scheduler and the timers' waker (timers
// fire at their second here, not at the minute's tick) on wg until ctx
// ends. A tick of the waker in flight at a stop gets the scheduler's
// grace, as a cron run does.
func runCron(ctx context.Context, wg *sync.WaitGroup, b *wiring.Bot) {
	sched := cron.NewScheduler(b.Dispatcher)
	wg.Go(func() {
		if err := sched.Run(ctx); err != nil {
			b.Log.Error("cron scheduler", "err", err)
		}
	})
	wg.Go(func() {
		runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		defer stop()
		cut := context.AfterFunc(ctx, func() { time.AfterFunc(cron.RunGrace, stop) })
		defer cut()
		b.App.WakeTimers(ctx, runCtx)
	})
}
