package sim

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// A user's timers in the life: reminders (the remind module) and coin
// price alerts, set, listed and cancelled now and then, drawn from a
// stream of their own (life.tm) so that the older seeds' lives keep their
// shape. Their deliveries come from the timers and coin_alerts jobs the
// life fires every minute; timerchecks.go checks them.

// reminder is one /remind the life sent, as its user saw it answered.
type reminder struct {
	key       string // "<user>:<update id>": the Cancel button's fields
	token     string // the unique word of its text: how a delivery is known
	chat      *chat  // where it was asked (its id follows an upgrade)
	from      int64  // the chat's id when it was asked
	thread    int
	user      int64
	due       time.Time // the earliest due time any run of it could set
	confirmed bool      // the user saw "I will remind you"
	message   int       // that reply's id: where its Cancel button is
	gone      bool      // a Cancel answered "no longer pending", or a run's answer was lost
	fate
}

// fate is what became of a reminder or an alert the user was told of: a
// Cancel confirmed or answered too late, its chat lost, its deliveries.
type fate struct {
	cancelled time.Time // when a Cancel was confirmed (zero: never)
	tooLate   bool      // a Cancel answered "too late"
	lost      bool      // its chat went out of reach while it was pending
	sent      []time.Time
}

// alert is one /coin_alert the life sent.
type alert struct {
	key     string // "<user>:<alert id>"
	chat    *chat
	from    int64
	thread  int
	user    int64
	sym     string
	above   bool
	level   decimal.Decimal
	shown   []string // the level as the bot may write it (levelShown)
	set     time.Time
	message int
	fate
}

// timersModel is what the users were told of their timers.
type timersModel struct {
	seq       int
	reminders map[string]*reminder // by key
	byToken   map[string]*reminder
	order     []*reminder // in the order set: the checks' order
	alerts    map[string]*alert
	alertList []*alert
}

func newTimersModel() *timersModel {
	return &timersModel{reminders: map[string]*reminder{}, byToken: map[string]*reminder{}, alerts: map[string]*alert{}}
}

// maybeTimers is, now and then after a step, a user setting, listing or
// cancelling a reminder or an alert.
func (l *life) maybeTimers() {
	if l.tm.IntN(100) >= 12 {
		return
	}
	switch x := l.tm.IntN(100); {
	case x < 40:
		l.setReminder()
	case x < 50:
		l.timerCommand("/remind_list")
	case x < 70:
		l.cancelReminder()
	case x < 85:
		l.setAlert()
	case x < 90:
		l.timerCommand("/coin_alerts")
	default:
		l.cancelAlert()
	}
}

// timerCommand is a member sending a command whose answer needs no model.
func (l *life) timerCommand(text string) []Call {
	c, thread, ok := l.world.pick(l.tm)
	if !ok {
		return nil
	}
	user := c.members[l.tm.IntN(len(c.members))]
	return l.sendTimerCommand(c, thread, user, text, strings.TrimPrefix(strings.Fields(text)[0], "/"))
}

func (l *life) sendTimerCommand(c *chat, thread int, user int64, text, cmd string) []Call {
	u := l.ids.text(l.clk.Now(), c, thread, user, text)
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d from %d: %s", c.id, thread, user, text), exp: expReply,
		chat: c, thread: thread, user: user, cmd: cmd}
	calls := l.deliver(d)
	l.remember(d)
	return calls
}

// setReminder is /remind in 10 minutes, 2 hours or at a time of day, with
// a word of its own in the text.
func (l *life) setReminder() {
	c, thread, ok := l.world.pick(l.tm)
	if !ok {
		return
	}
	user := c.members[l.tm.IntN(len(c.members))]
	l.timers.seq++
	token := "n" + strconv.Itoa(l.timers.seq)
	now := l.clk.Now()
	var when string
	var due time.Time
	switch x := l.tm.IntN(10); {
	case x < 4:
		d := time.Duration(2+l.tm.IntN(14)) * time.Minute
		when, due = fmt.Sprintf("%dm", int(d/time.Minute)), now.Add(d)
	case x < 7:
		when, due = "2h", now.Add(2*time.Hour)
	default:
		at := now.In(ict).Add(time.Duration(5+l.tm.IntN(600)) * time.Minute).Truncate(time.Minute)
		when, due = "at "+at.Format("15:04"), at
	}
	r := &reminder{token: token, chat: c, from: c.id, thread: thread, user: user, due: due}
	l.timers.byToken[token] = r
	l.timers.order = append(l.timers.order, r)
	l.hist.count("reminders-asked", 1)
	var calls []Call
	if l.cv.IntN(4) == 0 {
		calls = l.askReminder(r, when) // what, then when (remindask.go)
	} else {
		r.key = fmt.Sprintf("%d:%d", user, l.ids.update+1) // the id the update is given
		l.timers.reminders[r.key] = r
		calls = l.sendTimerCommand(c, thread, user, "/remind "+when+" "+token+" stretch", "remind")
	}
	// Confirmed: a reply to its update reached the user with its Cancel
	// button; the module must then hold it pending.
	for _, call := range calls {
		if call.OK && call.Method == "sendMessage" && cancelOf(call.Markup, "remind:") == "remind:"+r.key {
			r.confirmed, r.message = true, call.Message
		}
	}
	if r.confirmed {
		l.hist.count("reminders-set", 1)
		if !l.reminderPending(r.key) {
			l.fail("reminders", "%s: confirmed, but no timer is pending under %s", token, r.key)
		}
	}
	// Set or not, with its answer lost or refused: it may come (once) or not.
	r.gone = !r.confirmed
}

// reminderPending reports whether the remind module's timer under key is
// pending in the store, read through the timer engine the core uses.
func (l *life) reminderPending(key string) bool {
	pending, err := timer.New(l.cfg.Store.For(storage.CoreNamespace), l.clk.Now).For(remind.Name).List(context.Background(), key)
	if err != nil {
		l.t.Fatal(err)
	}
	return slices.ContainsFunc(pending, func(t app.Timer) bool { return t.Key == key })
}

// cancelReminder is a user pressing Cancel on a reminder's confirmation:
// now, or at its due second, racing the tick that sends it.
func (l *life) cancelReminder() {
	var open []*reminder
	for _, r := range l.timers.order {
		if r.confirmed && r.cancelled.IsZero() && !r.tooLate && !r.chat.gone && !r.chat.closed[r.thread] && len(r.sent) == 0 {
			open = append(open, r)
		}
	}
	if len(open) == 0 {
		l.setReminder()
		return
	}
	r := open[l.tm.IntN(len(open))]
	if l.tm.IntN(3) == 0 {
		soonest := open[0]
		for _, o := range open {
			if o.due.Before(soonest.due) {
				soonest = o
			}
		}
		r = soonest
		if at := r.due.Add(time.Duration(l.tm.IntN(90)) * time.Second); at.After(l.clk.Now()) && at.Sub(l.clk.Now()) < 3*time.Hour {
			l.fireCrons(at)
			if l.clk.Now().Before(at) {
				l.clk.Set(at)
			}
			l.hist.count("reminder-cancels-racing", 1)
		}
	}
	_, id, _ := strings.Cut(r.key, ":")
	l.press(r.chat, r.thread, r.user, r.message, "remind:"+strconv.FormatInt(r.user, 10)+":"+id, "Cancel")
}

// press is a member pressing a button the life knows of.
func (l *life) press(c *chat, thread int, user int64, message int, data, label string) {
	u := l.ids.press(l.clk.Now(), c, thread, user, message, data)
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d press by %d on %d: %s", c.id, thread, user, message, label),
		exp: expPress, chat: c, thread: thread, user: user}
	l.deliver(d)
	l.remember(d)
}

// timersRun is how the scheduler fires slot of name: for the timers job
// at a minute a reminder falls due, now and then with the store down for
// its first try, so the reminder comes late (at the retry), and once.
func (l *life) timersRun(name string, slot time.Time) func(string, time.Time) (string, error) {
	if name != core.TimersJob || !l.reminderDue(slot) {
		return l.dispatch
	}
	l.armRace(slot)
	if l.tm.IntN(4) != 0 {
		return l.dispatch
	}
	l.hist.count("timers-store-down", 1)
	first := true
	return func(name string, slot time.Time) (string, error) {
		l.store.SetDown(first)
		defer l.store.SetDown(false)
		first = false
		return l.dispatch(name, slot)
	}
}

// reminderDue reports whether a pending reminder falls due in the minute
// to slot.
func (l *life) reminderDue(slot time.Time) bool {
	for _, r := range l.timers.order {
		if len(r.sent) == 0 && r.cancelled.IsZero() && r.due.After(slot.Add(-time.Minute)) && !r.due.After(slot) {
			return true
		}
	}
	return false
}
