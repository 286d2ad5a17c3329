package cron

import (
	"context"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"

	robfig "github.com/robfig/cron/v3"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/pause"
)

// Scheduler fires the dispatcher's jobs in-process, in UTC, through Dispatch,
// and does what EventBridge Scheduler does for Lambda: a failed slot is
// tried again with back-off within a bounded window, and, since a process
// can be down when a slot falls due, a slot missed within the job's
// catch-up window runs once when the scheduler starts. Every try goes
// through the slot claim, so the container and Lambda never both run it.
type Scheduler struct {
	d *Dispatcher
	// schedule is when a job fires: its own schedule (tests fire faster).
	schedule func(core.CronJob) robfig.Schedule
	tick     time.Duration // the schedules' granularity, for the slot time
	now      func() time.Time
	wait     func(ctx context.Context, d time.Duration) error
	retries  []time.Duration
	grace    time.Duration // how long runs in flight may go on after a stop
}

// SchedulerOption configures NewScheduler.
type SchedulerOption func(*Scheduler)

// WithSchedulerClock sets the clock for catch-up and retry windows (tests;
// give the dispatcher the same one).
func WithSchedulerClock(now func() time.Time) SchedulerOption {
	return func(s *Scheduler) { s.now = now }
}

// WithSchedulerWait replaces how the scheduler waits between tries (tests).
func WithSchedulerWait(f func(ctx context.Context, d time.Duration) error) SchedulerOption {
	return func(s *Scheduler) { s.wait = f }
}

// WithRunGrace sets how long runs in flight may go on once Run's context
// ends (default RunGrace).
func WithRunGrace(d time.Duration) SchedulerOption {
	return func(s *Scheduler) { s.grace = d }
}

// RunGrace is how long a run in flight may go on after the scheduler is
// stopped, within the container's shutdown budget (compose gives 20 s
// before SIGKILL). A run still going then is cancelled: it fails and its
// slot is recorded failed, so the next start catches it up (a job resumes
// where it can: the daily push skips the chats it reached). Killed
// instead, it would leave its slot "running" until stale, and a restart
// within that time would skip the slot for good.
const RunGrace = 10 * time.Second

// retryBackoff are the waits before each new try of a failed slot: six
// tries over about an hour, as EventBridge Scheduler's retry policy gives
// the Lambda (MaximumEventAgeInSeconds 3600), each bounded by the job's
// retry window.
var retryBackoff = []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute}

// Bounds of a job's windows.
const (
	maxCatchUp     = 6 * time.Hour
	maxRetryWindow = time.Hour
)

// NewScheduler fires d's jobs.
func NewScheduler(d *Dispatcher, opts ...SchedulerOption) *Scheduler {
	s := &Scheduler{
		d: d, schedule: func(j core.CronJob) robfig.Schedule { return j }, tick: time.Minute,
		now: time.Now, wait: pause.For, retries: retryBackoff, grace: RunGrace,
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Run catches up missed slots, schedules every job and blocks until ctx
// ends; then it stops firing and waits for the runs in flight, for up to
// the run grace before it cancels them (retries still waiting are dropped:
// the next start catches their slot up). The registry has already checked
// every schedule.
func (s *Scheduler) Run(ctx context.Context) error {
	// Runs outlive ctx by the grace, not by their whole timeout.
	runCtx, stopRuns := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRuns()
	var fires sync.WaitGroup
	c := robfig.New(robfig.WithLocation(time.UTC))
	jobs := s.d.reg.Crons()
	for _, j := range jobs {
		if slot, ok := CatchUpSlot(j, s.now()); ok {
			fires.Go(func() { s.fire(ctx, runCtx, j, slot, true) })
		}
		c.Schedule(s.schedule(j), robfig.FuncJob(func() {
			// The fire's own slot: the scheduled instant this run is for.
			slot := s.now().UTC().Truncate(s.tick)
			fires.Go(func() { s.fire(ctx, runCtx, j, slot, false) })
		}))
	}
	s.d.log.Info("cron scheduler started", "jobs", len(jobs))
	c.Start()
	<-ctx.Done()
	<-c.Stop().Done()
	cut := time.AfterFunc(s.grace, stopRuns)
	fires.Wait() // runs in flight finish or are cut; waiting retries end with ctx
	cut.Stop()
	s.d.log.Info("cron scheduler stopped")
	return nil
}

// fire dispatches a slot and tries it again after a failure while its
// retry window lasts. Runs get runCtx, which outlives ctx by the grace;
// waits between tries end with ctx.
func (s *Scheduler) fire(ctx, runCtx context.Context, j core.CronJob, slot time.Time, catchUp bool) {
	window := retryWindowOf(j, slot)
	for try := 0; ; try++ {
		out, err := s.d.Dispatch(runCtx, j.Name, slot)
		if err == nil {
			if catchUp && out == Ran {
				s.d.metrics.Cron(j.Name, metrics.CaughtUp)
				s.d.log.Info("cron caught up a missed slot", "cron", j.Name, "scheduled", slot.Format(time.RFC3339))
			}
			return
		}
		// Dispatch logged the failure at Error, with the job, slot and error.
		if try >= len(s.retries) || s.now().Add(s.retries[try]).After(slot.Add(window)) {
			s.d.log.Error("cron slot given up: its retry window is over", "cron", j.Name,
				"scheduled", slot.Format(time.RFC3339), "tries", try+1, "err", err)
			return
		}
		s.d.log.Info("cron slot will be tried again", "cron", j.Name, "scheduled", slot.Format(time.RFC3339),
			"retry_in", s.retries[try], "tries", try+1)
		if s.wait(ctx, s.retries[try]) != nil {
			return // shutting down: the next start catches the slot up
		}
		s.d.metrics.Cron(j.Name, metrics.Retried)
	}
}

// period is the time between two fires of j after t.
func period(j core.CronJob, t time.Time) time.Duration {
	first := j.Next(t)
	return j.Next(first).Sub(first)
}

// CatchUpSlot is the slot of j a scheduler starting at now runs at once:
// the latest one due, if it is within j's catch-up window. Whether it ran
// already is the slot claim's to say.
func CatchUpSlot(j core.CronJob, now time.Time) (time.Time, bool) {
	return lastDue(j, now, catchUpOf(j, now))
}

// catchUpOf is how late a missed slot of j may still run.
func catchUpOf(j core.CronJob, now time.Time) time.Duration {
	if j.CatchUp > 0 {
		return j.CatchUp
	}
	return min(maxCatchUp, period(j, now)/4)
}

// retryWindowOf is how long after its slot a failed run is tried again:
// about an hour, but never into the next slot.
func retryWindowOf(j core.CronJob, slot time.Time) time.Duration {
	return min(maxRetryWindow, period(j, slot)/2)
}

// lastDue is the latest slot of j at or before now and within window of it.
func lastDue(j core.CronJob, now time.Time, window time.Duration) (time.Time, bool) {
	var last time.Time
	t := j.Next(now.Add(-window).Add(-time.Second))
	for i := 0; i < 100_000 && !t.After(now); i++ {
		last, t = t, j.Next(t)
	}
	return last, !last.IsZero()
}
