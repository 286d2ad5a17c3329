package sim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// topic is a subscription's place: a chat, or a forum topic of it.
type topic struct {
	chat   int64
	thread int
}

// subsModel is who is subscribed to the daily push, as the bot's answers
// told each chat, and what each day's push owes and sent.
type subsModel struct {
	on     map[topic]bool
	pushed map[string]bool                // the ICT days whose push slot ran
	owed   map[string]map[topic]time.Time // day -> a topic subscribed and reachable at a run of its slot -> that run's time
	got    map[string]map[topic]int       // day -> pushes of it each topic got
}

func newSubsModel() *subsModel {
	return &subsModel{on: map[topic]bool{}, pushed: map[string]bool{}, owed: map[string]map[topic]time.Time{}, got: map[string]map[topic]int{}}
}

// subscribe is /lolschedule_subscribe (on) or _unsubscribe in c: the
// answer, if one landed, says what the chat now believes.
func (l *life) subscribe(c *chat, thread int, cmd command, on bool) command {
	cmd.after = func(_ int64, calls []Call) {
		for _, call := range calls {
			if call.OK && call.Method == "sendMessage" {
				l.subsHeard(topic{call.SentChat, thread}, call)
			}
		}
	}
	return cmd
}

// heard updates the model from a message, edit or toast the bot showed in
// t: a subscription's confirmation carries its Unsubscribe button; the
// module tells an unsubscription in words only.
func (l *life) subsHeard(t topic, c Call) {
	switch m := l.subs; {
	case carries(c, schedPrefix, schedUnsub):
		m.on[t] = true
	case l.says(sayUnsubscribed, c.Text), l.says(sayNotSubscribed, c.Text):
		delete(m.on, t)
	}
}

// forget drops a chat's subscriptions, and what the pushes owed it: it
// blocked or removed the bot.
func (m *subsModel) forget(chat int64) {
	for t := range m.on {
		if t.chat == chat {
			delete(m.on, t)
		}
	}
	for _, owed := range m.owed {
		for t := range owed {
			if t.chat == chat {
				delete(owed, t)
			}
		}
	}
}

// move follows a group that became a supergroup: its subscriptions, and
// the pushes owed and sent to it.
func (m *subsModel) move(from, to int64) {
	for t := range m.on {
		if t.chat == from {
			delete(m.on, t)
			m.on[topic{to, t.thread}] = true
		}
	}
	for _, owed := range m.owed {
		for t, at := range owed {
			if t.chat == from {
				delete(owed, t)
				owed[topic{to, t.thread}] = at
			}
		}
	}
	for _, got := range m.got {
		for t, n := range got {
			if t.chat == from {
				delete(got, t)
				got[topic{to, t.thread}] += n
			}
		}
	}
}

// pushRan: a run of day's push slot (the scheduler's, a catch-up, by
// hand) owes, on a match day, a push to every topic subscribed and
// reachable then. The run only sets the chats' timers: the pushes come at
// the timers' ticks after it (pushesHeard).
func (l *life) pushRan(day string) {
	l.subs.pushed[day] = true
	if !l.mkt.matchDay(day) {
		return
	}
	owed := l.subs.owed[day]
	if owed == nil {
		owed = map[topic]time.Time{}
		l.subs.owed[day] = owed
	}
	for t := range l.subs.on {
		if _, ok := owed[t]; !ok {
			if ch := l.world.byID(t.chat); ch != nil && ch.reachable(t.thread) {
				owed[t] = l.clk.Now()
			}
		}
	}
}

// pushesHeard reads a step's calls for pushes, wherever they come (a
// timers' tick, mostly): a day's push comes to a topic once, never twice,
// and only after a run of its slot owed it there.
func (l *life) pushesHeard(calls []Call) {
	for _, c := range calls {
		day, ok := pushOf(c)
		if !ok {
			continue
		}
		t := topic{c.SentChat, c.Thread}
		got := l.subs.got[day]
		if got == nil {
			got = map[topic]int{}
			l.subs.got[day] = got
		}
		got[t]++
		l.hist.count("pushes", 1)
		switch _, owed := l.subs.owed[day][t]; {
		case got[t] > 1:
			l.fail("pushes", "day %s: %d/%d got its push %d times", day, t.chat, t.thread, got[t])
		case !owed:
			l.fail("pushes", "day %s (match day %t): %d/%d got a push no run of its slot owed it", day, l.mkt.matchDay(day), t.chat, t.thread)
		}
	}
}

// pushOf reads the day a sent push is of, from its button.
func pushOf(c Call) (string, bool) {
	if !c.OK || c.Method != "sendMessage" {
		return "", false
	}
	var kb models.InlineKeyboardMarkup
	if json.Unmarshal([]byte(c.Markup), &kb) != nil {
		return "", false
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			d, err := app.ParseCallback(schedPrefix, b.CallbackData, 2, 2)
			if err != nil || d.Fields[0] != schedPush {
				continue
			}
			if day, err := time.ParseInLocation("20060102", d.Fields[1], ict); err == nil {
				return ictDay(day), true
			}
		}
	}
	return "", false
}

// checkPushesAtEnd: every push owed a while before the end came to a topic
// still subscribed-to and reachable (one out of reach excuses it).
func (l *life) checkPushesAtEnd(end time.Time) {
	var bad []string
	for day, owed := range l.subs.owed {
		for t, at := range owed {
			ch := l.world.byID(t.chat)
			if l.subs.got[day][t] > 0 || !at.Before(end.Add(-time.Hour)) || ch == nil || !ch.reachable(t.thread) {
				continue
			}
			bad = append(bad, fmt.Sprintf("day %s: %d/%d owed since %s, never came", day, t.chat, t.thread, at.Format(time.RFC3339)))
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		l.fail("pushes", "%s", strings.Join(bad, "; "))
	}
}

// checkEveryDayPushed: no day's push slot went by unrun (a pause that held
// it, and nobody ran it after).
func (l *life) checkEveryDayPushed() {
	job, _ := l.app.Registry().CronByName(pushJob)
	end := Start.AddDate(0, 0, l.cfg.Days) // the clock may be past it: a slot after is no day of the life
	for slot := job.Next(Start); slot.Before(end); slot = job.Next(slot) {
		if !l.subs.pushed[ictDay(slot)] {
			l.fail("pushes", "the push of %s (slot %s) never ran", ictDay(slot), slot.Format(time.RFC3339))
		}
	}
}

// pushJob is the daily push's cron job.
const pushJob = "lolschedule_daily_push"
