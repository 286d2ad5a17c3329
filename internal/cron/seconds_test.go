package cron

import (
	"time"

	"github.com/miti99bot/miti99bot/internal/core"
	robfig "github.com/robfig/cron/v3"
)

// withSecondsForTest fires a job every second of each minute its schedule
// names, so tests see a fire within a second instead of a minute.
func withSecondsForTest() SchedulerOption {
	p := robfig.NewParser(robfig.Second | robfig.Minute | robfig.Hour | robfig.Dom | robfig.Month | robfig.Dow)
	return func(s *Scheduler) {
		s.schedule = func(j core.CronJob) robfig.Schedule {
			sched, err := p.Parse("* " + j.Schedule)
			if err != nil {
				panic(err) // the registry accepted it as 5 fields
			}
			return sched
		}
		s.tick = time.Second
	}
}
