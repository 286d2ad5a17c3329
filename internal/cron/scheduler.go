package cron

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	robfig "github.com/robfig/cron/v3"

	"github.com/miti99bot/miti99bot/internal/app"
)

// standard is the 5-field parser (minute hour day month weekday).
var standard = robfig.NewParser(robfig.Minute | robfig.Hour | robfig.Dom | robfig.Month | robfig.Dow)

// Validate parses every job's schedule, naming the first bad one. Both
// runtimes call it at start-up, so a bad schedule never reaches production.
func Validate(reg *app.Registry) error {
	for _, j := range reg.Crons() {
		if _, err := standard.Parse(j.Schedule); err != nil {
			return fmt.Errorf("cron job %q (module %q): invalid schedule %q: %w", j.Name, j.Module, j.Schedule, err)
		}
	}
	return nil
}

// Scheduler fires the registry's jobs in-process, in UTC, through Dispatch.
type Scheduler struct {
	d      *Dispatcher
	reg    *app.Registry
	log    *slog.Logger
	parser robfig.ScheduleParser
	tick   time.Duration // the schedules' granularity, for the slot time
}

// SchedulerOption configures NewScheduler.
type SchedulerOption func(*Scheduler)

// NewScheduler schedules a's jobs.
func NewScheduler(a *app.App, d *Dispatcher, opts ...SchedulerOption) *Scheduler {
	s := &Scheduler{d: d, reg: a.Registry(), log: a.Logger(), parser: standard, tick: time.Minute}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Run schedules every job and blocks until ctx ends; then it stops firing
// and waits for the jobs in flight. An invalid schedule fails before anything
// is scheduled.
func (s *Scheduler) Run(ctx context.Context) error {
	c := robfig.New(robfig.WithLocation(time.UTC), robfig.WithParser(s.parser))
	for _, j := range s.reg.Crons() {
		sched, err := s.parser.Parse(j.Schedule)
		if err != nil {
			return fmt.Errorf("cron job %q (module %q): invalid schedule %q: %w", j.Name, j.Module, j.Schedule, err)
		}
		c.Schedule(sched, robfig.FuncJob(func() {
			// The fire's own slot: the scheduled instant this run is for.
			slot := time.Now().UTC().Truncate(s.tick)
			// Jobs outlive ctx's cancellation: stopping waits for them.
			if _, err := s.d.Dispatch(context.WithoutCancel(ctx), j.Name, slot); err != nil {
				s.log.Debug("cron dispatch returned an error", "cron", j.Name, "err", err)
			}
		}))
	}
	s.log.Info("cron scheduler started", "jobs", len(s.reg.Crons()))
	c.Start()
	<-ctx.Done()
	<-c.Stop().Done() // waits for running jobs
	s.log.Info("cron scheduler stopped")
	return nil
}
