package sim

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// topic is a subscription's place: a chat, or a forum topic of it.
type topic struct {
	chat   int64
	thread int
}

// subsModel is who is subscribed to the daily push, as the bot's answers
// told each chat.
type subsModel struct {
	on     map[topic]bool
	pushed map[string]bool // the ICT days whose push slot ran
}

func newSubsModel() *subsModel { return &subsModel{on: map[topic]bool{}, pushed: map[string]bool{}} }

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

// forget drops a chat's subscriptions: it blocked or removed the bot.
func (m *subsModel) forget(chat int64) {
	for t := range m.on {
		if t.chat == chat {
			delete(m.on, t)
		}
	}
}

// move follows a group that became a supergroup.
func (m *subsModel) move(from, to int64) {
	for t := range m.on {
		if t.chat == from {
			delete(m.on, t)
			m.on[topic{to, t.thread}] = true
		}
	}
}

// checkPush: on a match day every subscribed, reachable topic got exactly
// one push, and nobody else got one; on other days nobody did.
func (l *life) checkPush(day string, calls []Call) {
	l.subs.pushed[day] = true
	got := map[topic]int{}
	for _, c := range calls {
		if c.OK && c.Method == "sendMessage" && carries(c, schedPrefix, schedPush) {
			got[topic{c.SentChat, c.Thread}]++
		}
	}
	want := map[topic]int{}
	if l.mkt.matchDay(day) {
		for t := range l.subs.on {
			if ch := l.world.byID(t.chat); ch != nil && ch.reachable(t.thread) {
				want[t] = 1
			}
		}
	}
	var bad []string
	for t := range union(got, want) {
		if got[t] != want[t] {
			bad = append(bad, fmt.Sprintf("%d/%d got %d, want %d", t.chat, t.thread, got[t], want[t]))
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		l.fail("pushes", "day %s (match day %t): %s", day, l.mkt.matchDay(day), strings.Join(bad, "; "))
	}
	l.hist.count("pushes", len(got))
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

func union(a, b map[topic]int) map[topic]bool {
	out := map[topic]bool{}
	for t := range a {
		out[t] = true
	}
	for t := range b {
		out[t] = true
	}
	return out
}
