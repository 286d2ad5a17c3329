package core

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// TimersJob is the engine's cron job that fires the modules' due timers,
// every minute, on whichever runtime drives the cron (the container's
// scheduler, Lambda's schedule). Its module name is reserved likewise.
const TimersJob = "timers"

// timersTimeout bounds a tick: it ends before the next minute's.
const timersTimeout = 50 * time.Second

// timersModule is the engine's own module holding TimersJob, registered
// when an enabled module has OnTimer (otherwise the job is a disabled
// one: its schedule's fires are skipped, not failed).
func (a *App) timersModule() *app.Module {
	return &app.Module{Name: TimersJob, Crons: []app.Cron{{
		Name:     TimersJob,
		Schedule: "* * * * *",
		Timeout:  timersTimeout,
		// A tick fires every timer due by now, whichever slot it runs for.
		Handler: func(ctx context.Context, _ app.CronRun) error {
			st, err := a.timers.Tick(ctx)
			if st.Due > 0 || err != nil {
				a.log.Info("timers ticked", "hours", st.Hours, "due", st.Due, "fired", st.Fired, "waiting", st.Waits, "errors", st.Errors)
			}
			return err
		},
	}}}
}

// timerHandler finds an enabled module's OnTimer.
func (a *App) timerHandler(module string) (func(context.Context, app.Timer) error, bool) {
	if module == convTimerOwner {
		return a.conversationTimedOut, true
	}
	for _, m := range a.reg.modules {
		if m.Name == module && m.OnTimer != nil {
			return m.OnTimer, true
		}
	}
	return nil, false
}

func newTimers(a *App, log *slog.Logger, r *rand.Rand) *timer.Engine {
	opts := []timer.Option{timer.WithLogger(log.With("part", "timers")), timer.WithHandler(a.timerHandler)}
	if r != nil {
		opts = append(opts, timer.WithRand(r))
	}
	return timer.New(a.core, a.now, opts...)
}

// Timers is the engine behind every module's Deps.Timers (tests tick it).
func (a *App) Timers() *timer.Engine { return a.timers }
