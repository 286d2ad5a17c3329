package sim

import (
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"
)

// The remind module's questions, as the life knows them in its replies.
const (
	askWhatPrefix = "What should I remind you of?"
	askWhenPrefix = "When?"
)

// askReminder is r asked for as /remind with no arguments, answered step
// by step: what, then when, each a plain message (in a group a reply to
// the bot's question, all privacy mode lets the bot hear). Now and then
// the user sends /cancel at a question instead. It returns the calls of
// the step that sets the reminder (nil when none was sent) and keys r by
// that step's update, as the reminder's Cancel button is. The next step
// is sent only once its question was seen: a question lost leaves the
// conversation to its timer, and a later /remind starts it again.
func (l *life) askReminder(r *reminder, when string) []Call {
	r.key = fmt.Sprintf("%d:ask%d", r.user, l.timers.seq) // no step set it
	l.timers.reminders[r.key] = r
	l.hist.count("remind-asked", 1)
	questions := []string{askWhatPrefix, askWhenPrefix}
	answers := []string{r.token + " stretch", when}
	calls := l.remindStep(r, "/remind", 0, "remind", expReply)
	for i, answer := range answers {
		question := questionIn(calls, r.chat.id, questions[i])
		if question == 0 {
			l.hist.count("remind-asked-unheard", 1)
			return nil
		}
		if l.cv.IntN(6) == 0 {
			exp := expReply
			if r.chat.kind != private {
				exp = expMaybe // a group hears nothing of a /cancel with nothing to end
			}
			l.remindStep(r, "/cancel", 0, "", exp)
			l.hist.count("remind-asked-cancelled", 1)
			return nil
		}
		if i == len(answers)-1 {
			delete(l.timers.reminders, r.key)
			r.key = fmt.Sprintf("%d:%d", r.user, l.ids.update+1) // the id the update is given
			l.timers.reminders[r.key] = r
		}
		calls = l.remindStep(r, answer, question, "", expReply)
		l.hist.count("remind-asked-steps", 1)
	}
	return calls
}

// remindStep is r's user sending text in r's chat, a reply to the bot's
// message to when not 0.
func (l *life) remindStep(r *reminder, text string, to int, cmd string, exp expect) []Call {
	u := l.ids.text(l.clk.Now(), r.chat, r.thread, r.user, text)
	if to != 0 {
		u.Message.ReplyToMessage = &models.Message{ID: to, Chat: chatOf(r.chat), From: &models.User{ID: botID, IsBot: true, FirstName: "miti99bot", Username: "miti99bot"}}
	}
	what := text
	if to != 0 || !strings.HasPrefix(text, "/") {
		what = "<remind step> " + text
	}
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d from %d: %s", r.chat.id, r.thread, r.user, what), exp: exp,
		chat: r.chat, thread: r.thread, user: r.user, cmd: cmd}
	calls := l.deliver(d)
	l.remember(d)
	return calls
}

// questionIn is the id of the message in calls that asks question in
// chat, or 0.
func questionIn(calls []Call, chat int64, question string) int {
	for _, c := range calls {
		if c.OK && c.Method == "sendMessage" && c.Chat == chat && strings.HasPrefix(c.Text, question) {
			return c.Message
		}
	}
	return 0
}
