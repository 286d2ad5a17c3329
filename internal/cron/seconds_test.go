package cron

import (
	"time"

	robfig "github.com/robfig/cron/v3"
)

// withSecondsForTest fires a job every second of each minute its schedule
// names, so tests see a fire within a second instead of a minute.
func withSecondsForTest() SchedulerOption {
	return func(s *Scheduler) {
		s.parser = everySecond{robfig.NewParser(robfig.Second | robfig.Minute | robfig.Hour | robfig.Dom | robfig.Month | robfig.Dow)}
		s.tick = time.Second
	}
}

type everySecond struct{ p robfig.Parser }

func (e everySecond) Parse(spec string) (robfig.Schedule, error) { return e.p.Parse("* " + spec) }
