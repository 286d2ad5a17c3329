package core

import (
	"time"

	robfig "github.com/robfig/cron/v3"
)

// scheduleParser reads a job's 5-field schedule (minute hour day month
// weekday, UTC). It is the one place a schedule is parsed: the registry
// rejects a bad one at start-up, and the scheduler fires on CronJob.Next.
var scheduleParser = robfig.NewParser(robfig.Minute | robfig.Hour | robfig.Dom | robfig.Month | robfig.Dow)

// Next is the job's first fire after t.
func (j CronJob) Next(t time.Time) time.Time { return j.schedule.Next(t.UTC()) }
