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
// scheduler, Lambda's schedule): on Lambda the only tick, in the container
// the safety net under WakeTimers. Its module name is reserved likewise.
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
		// One tick runs at a time across processes: a minute whose tick
		// finds another running leaves its due timers to that one and the
		// next (timer.TickStats.Busy).
		Handler: func(ctx context.Context, _ app.CronRun) error {
			_, err := a.tickTimers(ctx, "minute")
			return err
		},
	}}}
}

func (a *App) tickTimers(ctx context.Context, by string) (timer.TickStats, error) {
	st, err := a.timers.Tick(ctx)
	if st.Due > 0 || err != nil {
		a.log.Info("timers ticked", "by", by, "hours", st.Hours, "due", st.Due, "fired", st.Fired, "forgot", st.Forgot, "waiting", st.Waits, "errors", st.Errors)
	}
	return st, err
}

// WakeTimers fires the modules' timers at their second until ctx ends
// (timer.Engine.Wake), for a runtime that runs on (the container; Lambda
// has only its minute schedule, which the minute's tick keeps serving
// here too as the safety net). Each tick runs on runCtx within the tick's
// budget, so that a shutdown lets one in flight end. Nothing runs when no
// enabled module has OnTimer.
func (a *App) WakeTimers(ctx, runCtx context.Context) {
	if _, ok := a.reg.CronByName(TimersJob); !ok {
		return
	}
	a.timers.Wake(ctx, func() bool {
		tctx, cancel := context.WithTimeout(runCtx, timersTimeout)
		defer cancel()
		st, err := a.tickTimers(tctx, "waker")
		if err != nil {
			a.log.Warn("timers: the waker's tick failed; the minute's tick tries again", "err", err)
		}
		return !st.Busy
	})
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
