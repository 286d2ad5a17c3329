package sim

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/cron"
)

// A cutover or a rollback takes time (docs/cutover.md): from the moment the
// operator pauses the schedules and deletes the webhook until the other
// deployment starts, Telegram holds the users' updates and no scheduler
// fires. The life lives that window: the users' steps inside it are
// delivered when it ends, in the order they were sent (the queue drains),
// and a slot it held runs once, by its own time: the container's
// scheduler catches it up at start within the job's catch-up window
// (cron.CatchUpSlot); EventBridge never fires a paused slot, so the
// operator runs it by hand (botctl cron run -scheduled), as the runbook
// says, and does the same for a slot older than the container catches up.

// Windows: most are short; one in three spans the next daily slot, and
// some of those outlast the push's catch-up window (an operator who went
// to bed mid-cutover). Telegram keeps a queue 24 hours: every window is
// shorter.
const (
	shortWindow = 10 * time.Minute
	longWindow  = 8 * time.Hour
	nearSlot    = 12 * time.Hour // a long window spans a slot at most this far
)

// window draws how long the move starting now keeps the bot down.
func (l *life) window(now time.Time) time.Duration {
	r := l.op.rw
	w := shortWindow + time.Duration(r.Int64N(int64(50*time.Minute)))
	if r.IntN(3) != 0 {
		return w
	}
	next := l.soonestSlot()
	if gap := next.Sub(now); gap < nearSlot {
		return gap + w + time.Duration(r.Int64N(int64(longWindow)))
	}
	return w
}

// The windows' and the operator's clock's own streams of the seed.
func newWindows(seed uint64) (windows, clock *rand.Rand) {
	return rand.New(rand.NewPCG(seed, 0x77696e646f77)), rand.New(rand.NewPCG(seed, 0x636c6f636b))
}

// soonestSlot is the next fire of any job.
func (l *life) soonestSlot() time.Time {
	var soonest time.Time
	for _, at := range l.next {
		if soonest.IsZero() || at.Before(soonest) {
			soonest = at
		}
	}
	return soonest
}

// resume ends a window at until: the deployment the move started begins
// serving, and every slot the pause held runs once.
func (l *life) resume(until time.Time) {
	held := map[string][]time.Time{}
	names := make([]string, 0, len(l.next))
	for name := range l.next {
		job, _ := l.app.Registry().CronByName(name)
		for !l.next[name].After(until) {
			held[name] = append(held[name], l.next[name])
			l.next[name] = job.Next(l.next[name])
		}
		if len(held[name]) > 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	l.clk.Set(until)
	l.hist.op("  the bot is back after %s", until.Sub(l.op.paused).Round(time.Minute))
	for _, name := range names {
		slots := held[name]
		job, _ := l.app.Registry().CronByName(name)
		if frequent(job, slots[0]) {
			slots = slots[len(slots)-1:] // the last stands for them (crons.go)
		}
		caught, ok := cron.CatchUpSlot(job, until)
		for _, slot := range slots {
			if l.rt != rtLambda && ok && caught.Equal(slot) {
				l.hist.count("caught-up", 1)
				l.fire(name, slot, "caught up", l.dispatch)
				continue
			}
			l.hist.count("run-by-hand", 1)
			l.fire(name, slot, "by hand", l.byHand)
		}
	}
}

// byHand is the operator's botctl cron run -scheduled: the deployment's
// cron route, through the Function URL or the container's HTTP server.
func (l *life) byHand(name string, slot time.Time) (string, error) {
	p := l.serving(l.rt)
	path := "/cron/" + url.PathEscape(name)
	query := "scheduled=" + url.QueryEscape(slot.Format(time.RFC3339))
	code, body := p.serve(http.MethodPost, path+"?"+query, map[string]string{"X-Cron-Token": cronSecret})
	if code != http.StatusOK {
		return "", &manualRunError{code: code, body: strings.TrimSpace(body)}
	}
	return strings.TrimSpace(body), nil
}

// manualRunError is a refused or failed manual run, as botctl reports it.
type manualRunError struct {
	code int
	body string
}

func (e *manualRunError) Error() string {
	return "cron route answered " + http.StatusText(e.code) + ": " + e.body
}
