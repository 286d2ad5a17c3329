package cron

import (
	"context"
	"time"

	robfig "github.com/robfig/cron/v3"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Scheduler fires the dispatcher's jobs in-process, in UTC, through Dispatch.
type Scheduler struct {
	d *Dispatcher
	// schedule is when a job fires: its own schedule (tests fire faster).
	schedule func(app.CronJob) robfig.Schedule
	tick     time.Duration // the schedules' granularity, for the slot time
}

// SchedulerOption configures NewScheduler.
type SchedulerOption func(*Scheduler)

// NewScheduler fires d's jobs.
func NewScheduler(d *Dispatcher, opts ...SchedulerOption) *Scheduler {
	s := &Scheduler{d: d, schedule: func(j app.CronJob) robfig.Schedule { return j }, tick: time.Minute}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Run schedules every job and blocks until ctx ends; then it stops firing
// and waits for the jobs in flight. The registry has already checked every
// schedule.
func (s *Scheduler) Run(ctx context.Context) error {
	c := robfig.New(robfig.WithLocation(time.UTC))
	jobs := s.d.reg.Crons()
	for _, j := range jobs {
		c.Schedule(s.schedule(j), robfig.FuncJob(func() {
			// The fire's own slot: the scheduled instant this run is for.
			slot := time.Now().UTC().Truncate(s.tick)
			// Jobs outlive ctx's cancellation: stopping waits for them.
			if _, err := s.d.Dispatch(context.WithoutCancel(ctx), j.Name, slot); err != nil {
				s.d.log.Debug("cron dispatch returned an error", "cron", j.Name, "err", err)
			}
		}))
	}
	s.d.log.Info("cron scheduler started", "jobs", len(jobs))
	c.Start()
	<-ctx.Done()
	<-c.Stop().Done() // waits for running jobs
	s.d.log.Info("cron scheduler stopped")
	return nil
}
