package sim

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"
)

// racer is a Cancel pressed while its reminder is being sent: the tick
// has taken the timer and its callback is at the Bot API when the press
// reaches another process, which must answer "too late"; the reminder
// still comes, once.
type racer struct {
	r     *reminder
	u     *models.Update
	p     *proc
	fired atomic.Bool // the reminder's send reached the front

	mu    sync.Mutex
	calls []Call // the press's calls
	ok    bool
}

// armRace, now and then at a timers slot where a reminder falls due,
// readies its owner's Cancel press for the moment its send reaches the
// Bot API (raceAtSend), by a process of the other runtime.
func (l *life) armRace(slot time.Time) {
	if l.tm.IntN(3) != 0 {
		return
	}
	for _, r := range l.timers.order {
		if !r.confirmed || len(r.sent) > 0 || !r.cancelled.IsZero() || r.chat.gone || r.chat.closed[r.thread] ||
			!r.due.After(slot.Add(-time.Minute)) || r.due.After(slot) {
			continue
		}
		_, id, _ := strings.Cut(r.key, ":")
		u := l.ids.press(slot, r.chat, r.thread, r.user, r.message, "remind:"+strconv.FormatInt(r.user, 10)+":"+id)
		rt := rtLambda
		if l.serving(l.rt).kind == rtLambda {
			rt = rtWebhook
		}
		l.racing.Store(&racer{r: r, u: u, p: l.replica(rt)})
		return
	}
}

// raceAtSend is the front's look at a call before it lands: the armed
// reminder's send first lets its Cancel press run to its end.
func (l *life) raceAtSend(r *http.Request, method string) {
	rc := l.racing.Load()
	if rc == nil || method != "sendMessage" {
		return
	}
	if reminderToken(peekParams(r)["text"]) != rc.r.token || !rc.fired.CompareAndSwap(false, true) {
		return
	}
	mark := l.wire.len()
	ok, _ := rc.p.deliver(rc.u, nil)
	calls := l.wire.since(mark)
	rc.mu.Lock()
	rc.calls, rc.ok = calls, ok
	rc.mu.Unlock()
}

// raceHeard reads what the raced press was answered, once the slot's
// fire is over.
func (l *life) raceHeard() {
	rc := l.racing.Swap(nil)
	if rc == nil || !rc.fired.Load() {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	l.hist.line("  raced: %s press on %d handled=%t", rc.r.token, rc.r.message, rc.ok)
	l.hist.count("reminder-cancels-at-send", 1)
	l.cancelHeard(rc.u.CallbackQuery.Data, rc.calls)
	for _, c := range rc.calls {
		// Its answer may be lost (Telegram's fault), never another verdict.
		if c.OK && (l.says(sayRemindCancelled, c.Text) || l.says(sayRemindGone, c.Text)) {
			l.fail("reminders", "%s: a Cancel pressed while it was being sent was answered %q", rc.r.token, c.Text)
		}
	}
	rc.r.tooLate, rc.r.gone = true, false // being sent: it comes, once
}
