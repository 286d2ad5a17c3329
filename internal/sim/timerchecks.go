package sim

import (
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/timer"
)

// The engine's line for a timer fired again because the run that took it
// recorded no end (its runner died between the send and the end): the
// one case where a reminder may come twice (docs/delivery.md).
const timerRetaken = timer.Retaken

// alertTimerPrefix starts a price alert's timer key: "alert:<user>:<id>",
// the user and id its Cancel's data carries.
const alertTimerPrefix = "alert:"

// timersHeard reads a step's calls (d nil: a cron's) for what the users
// saw of their timers: a reminder or an alert arriving, the answer to a
// Cancel. Each arrival is checked as it comes.
func (l *life) timersHeard(d *delivery, calls []Call) {
	if d != nil && d.u.CallbackQuery != nil && !d.again {
		l.cancelHeard(d.u.CallbackQuery.Data, calls)
	}
	for _, c := range calls {
		if !c.OK || c.Method != "sendMessage" {
			continue
		}
		listed := d != nil && d.cmd == "remind_list" // a list names pending reminders' words
		switch r := l.timers.byToken[reminderToken(c.Text)]; {
		case r != nil && !listed:
			l.reminderArrived(c, r)
		case l.alertFired(c.Text):
			l.alertArrived(c)
		}
	}
}

// alertFired reports whether text is a fired price alert, which its
// timer sends at any tick: a bell that is not the reply setting one.
func (l *life) alertFired(text string) bool {
	return strings.HasPrefix(text, "🔔 ") && !l.says(sayAlertSet, text)
}

// reminderToken is the token of the reminder text ends with: its user's
// own words, "<token> stretch", which the bot repeats in whatever
// language it speaks ("" for none).
func reminderToken(text string) string {
	f := strings.Fields(text)
	if len(f) < 2 || f[len(f)-1] != "stretch" {
		return ""
	}
	return f[len(f)-2]
}

func (l *life) reminderArrived(c Call, r *reminder) {
	token, now := r.token, l.clk.Now()
	switch {
	case now.Before(r.due):
		l.fail("reminders", "%s came at %s, before its time %s", token, now.Format(time.RFC3339), r.due.Format(time.RFC3339))
	case c.SentChat != r.chat.id && c.SentChat != r.from:
		l.fail("reminders", "%s came to chat %d, asked in %d", token, c.SentChat, r.chat.id)
	case c.Thread != r.thread && c.Thread != 0:
		l.fail("reminders", "%s came to topic %d, asked in %d", token, c.Thread, r.thread)
	case !r.cancelled.IsZero():
		l.fail("reminders", "%s came at %s, after its Cancel was confirmed at %s", token, now.Format(time.RFC3339), r.cancelled.Format(time.RFC3339))
	}
	r.sent = append(r.sent, now)
	l.hist.count("reminders-sent", 1)
	if len(r.sent) > 1 {
		if l.logs.timerRetakes(r.key) >= len(r.sent)-1 {
			l.hist.line("  excused a repeated reminder %s: its run recorded no end (%s)", token, timerRetaken)
			l.hist.count("excused-reminders", 1)
			return
		}
		l.fail("reminders", "%s came %d times", token, len(r.sent))
	}
}

func (l *life) alertArrived(c Call) {
	a := l.alertSent(c)
	now := l.clk.Now()
	switch {
	case a == nil:
		l.fail("alerts", "an alert no one set (or in another chat): %q to %d", c.Text, c.SentChat)
		return
	case !a.cancelled.IsZero():
		l.fail("alerts", "%s came at %s, after its Cancel was confirmed at %s", a.key, now.Format(time.RFC3339), a.cancelled.Format(time.RFC3339))
	case len(a.sent) > 0 && l.logs.timerRetakes(alertTimerPrefix+a.key) >= len(a.sent):
		// Sent through its timer, whose run died unrecorded: the engine's
		// one way to send twice, logged.
		l.hist.line("  excused a repeated alert %s: its timer's run recorded no end (%s)", a.key, timerRetaken)
		l.hist.count("excused-alerts", 1)
	case len(a.sent) > 0:
		l.fail("alerts", "%s came twice: %q", a.key, c.Text)
	case !l.crossedBy(a):
		l.fail("alerts", "%s came though the price never crossed %s: %q", a.key, a.level, c.Text)
	}
	a.sent = append(a.sent, now)
	l.hist.count("alerts-sent", 1)
}

// cancelHeard reads the answer to a press of a reminder's or an alert's
// Cancel (the life's own, or an old message's pressed by pressOld).
func (l *life) cancelHeard(data string, calls []Call) {
	said := func(s saying) bool {
		for _, c := range calls {
			if c.OK && (c.Method == "sendMessage" || c.Method == "answerCallbackQuery") && l.says(s, c.Text) {
				return true
			}
		}
		return false
	}
	if key, ok := strings.CutPrefix(data, "remind:"); ok {
		r := l.timers.reminders[key]
		switch {
		case r == nil || l.cancelAnswered(&r.fate, "reminders", r.token, said, sayRemindCancelled, sayRemindTooLate) || said(sayRemindNotYours),
			said(sayRemindGone):
		default:
			r.gone = true // the press went unanswered: cancelled, or not
		}
		return
	}
	if key, ok := alertKey(data); ok {
		if a := l.timers.alerts[key]; a != nil {
			l.cancelAnswered(&a.fate, "alerts", a.key, said, sayAlertCancelled, sayAlertTooLate)
		}
	}
}

// cancelAnswered moves f by a Cancel's answer, if it is the confirmation
// (never after a delivery) or "too late" (then it comes once); false for
// any other answer.
func (l *life) cancelAnswered(f *fate, kind, name string, said func(saying) bool, confirmed, late saying) bool {
	switch {
	case said(confirmed):
		f.cancelled = l.clk.Now()
		l.hist.count(kind+"-cancelled", 1)
		if len(f.sent) > 0 {
			l.fail(kind, "%s: Cancel confirmed after it came", name)
		}
	case said(late):
		f.tooLate = true
		l.hist.count(kind+"-too-late", 1)
	default:
		return false
	}
	return true
}

// timersChatGone: a chat out of reach excuses its pending timers from
// coming (the bot drops what the chat refuses).
func (l *life) timersChatGone(c *chat) {
	for _, r := range l.timers.order {
		if r.chat == c && len(r.sent) == 0 {
			r.lost = true
		}
	}
	for _, a := range l.timers.alertList {
		if a.chat == c && len(a.sent) == 0 {
			a.lost = true
		}
	}
}

// checkTimersAtEnd: every reminder confirmed and not cancelled, due a
// while before the end, came exactly once (late after an outage or a
// pause, but once, on one side of a cutover); one whose Cancel said "too
// late" came once; an alert whose Cancel said "too late" came once.
func (l *life) checkTimersAtEnd(end time.Time) {
	for _, r := range l.timers.order {
		if r.lost || r.chat.gone || !r.due.Before(end.Add(-time.Hour)) {
			continue
		}
		want := r.tooLate || r.confirmed && r.cancelled.IsZero() && !r.gone
		if want && len(r.sent) == 0 {
			l.fail("reminders", "%s (due %s in %d/%d) never came", r.token, r.due.Format(time.RFC3339), r.chat.id, r.thread)
		}
	}
	for _, a := range l.timers.alertList {
		if a.tooLate && !a.lost && !a.chat.gone && len(a.sent) == 0 {
			l.fail("alerts", "%s answered too late to its Cancel, and never came", a.key)
		}
	}
}
