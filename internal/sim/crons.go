package sim

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"
)

// cronTries is how often a failing slot is fired again (the in-process
// scheduler's and EventBridge's retries), cronRetry apart.
const (
	cronTries = 6
	cronRetry = 10 * time.Minute
)

// fireCrons runs every job whose next fire is before until, at its
// scheduled time, again while it fails; the push is then checked. The
// slots run in time order (a minute's jobs in name order), so each job's
// run sees the clock at its own slot, not a later job's.
func (l *life) fireCrons(until time.Time) {
	names := make([]string, 0, len(l.next))
	for name := range l.next {
		names = append(names, name)
	}
	slices.Sort(names)
	for {
		name := ""
		for _, n := range names {
			if !l.next[n].After(until) && (name == "" || l.next[n].Before(l.next[name])) {
				name = n
			}
		}
		if name == "" {
			return
		}
		slot := l.next[name]
		job, _ := l.app.Registry().CronByName(name)
		l.next[name] = job.Next(slot)
		if frequent(job, slot) && l.next[name].Truncate(time.Hour).Equal(slot.Truncate(time.Hour)) {
			continue // the hour's last slot stands for this one
		}
		l.fire(name, slot, "", l.timersRun(name, slot))
		l.raceHeard()
	}
}

// frequent reports whether job is due more often than hourly (the
// timers' tick and the markets' alert checks, every minute). Of such a
// job's slots the life fires the last of each hour, which keeps a life of
// days affordable: the fake prices move by the hour, so an hour's alert
// checks read the same prices, and a timer due within the hour fires at
// its last slot, late but once, which the checkers allow (at or after its
// time).
func frequent(job core.CronJob, slot time.Time) bool {
	return job.Next(slot).Sub(slot) < time.Hour
}

// fire runs slot of name by run: the scheduler of the stretch's runtime,
// or how else (a catch-up, the operator's manual run).
func (l *life) fire(name string, slot time.Time, how string, run func(string, time.Time) (string, error)) {
	if l.clk.Now().Before(slot) {
		l.clk.Set(slot)
	}
	l.step++
	l.wire.setStep(l.step)
	mark := l.wire.len()
	if how == "" {
		l.hist.line("step %d cron %s %s", l.step, name, slot.Format(time.RFC3339))
	} else {
		l.hist.line("step %d cron %s %s %s at %s", l.step, name, slot.Format(time.RFC3339), how, l.clk.Now().Format(time.RFC3339))
	}
	if name == pushJob && l.r.IntN(10) == 0 {
		l.mkt.failSchedule(1 + l.r.IntN(2)) // the schedule API is down for a while
		l.hist.count("schedule-api-down", 1)
	}
	failed := false
	for try := 1; try <= cronTries; try++ {
		if try > 1 {
			l.clk.Add(cronRetry)
			l.hist.count("cron-retries", 1)
		}
		out, err := run(name, slot)
		l.hist.line("  try %d %s failed=%t", try, out, err != nil)
		failed = failed || err != nil
		if err == nil {
			break
		}
	}
	l.hist.count("cron-fires", 1)
	calls := l.wire.since(mark)
	if name == core.TimersJob {
		// A tick's workers send side by side: the history takes their
		// calls in an order of their own.
		slices.SortStableFunc(calls, func(a, b Call) int {
			return cmp.Or(strings.Compare(a.Text, b.Text), cmp.Compare(a.Chat, b.Chat), cmp.Compare(a.Thread, b.Thread))
		})
	}
	l.hist.calls(calls, false)
	if name == pushJob {
		l.pushRan(ictDay(slot))
	}
	l.pushesHeard(calls)
	l.seen(calls)
	l.timersHeard(nil, calls)
	l.checkSentLanguage(name, calls, failed)
}
