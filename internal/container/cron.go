package container

import (
	"context"
	"sync"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// runCron runs the in-process scheduler on wg until ctx ends.
func runCron(ctx context.Context, wg *sync.WaitGroup, b *wiring.Bot) {
	sched := cron.NewScheduler(b.Dispatcher)
	wg.Go(func() {
		if err := sched.Run(ctx); err != nil {
			b.Log.Error("cron scheduler", "err", err)
		}
	})
}
