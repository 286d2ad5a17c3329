package sim

import (
	"fmt"
	"strings"
	"time"
)

// LostStep names a plain message that answered a conversation's question
// and got no answer and no logged reason: its step moved the conversation
// and its question never reached the user (the run died or was refused
// before it), and the message delivered again asked nothing.
const LostStep = "lost-step"

// askReminder is r asked for as /remind with no arguments, answered step
// by step: what, then when, each a plain message (in a group a reply to
// the bot's question, all privacy mode lets the bot hear), a few seconds
// after its question, across what happens meanwhile (between). Now and
// then the user sends /cancel at a question instead. It returns the calls
// of the step that sets the reminder (nil when none was sent) and keys r
// by that step's update, as the reminder's Cancel button is. The next step
// is sent only once its question was seen: a question lost leaves the
// conversation to its timer, and a later /remind starts it again. Each
// question seen, the engine's record of the conversation has moved once
// per step (checkConv).
func (l *life) askReminder(r *reminder, when string) []Call {
	r.key = fmt.Sprintf("%d:ask%d", r.user, l.timers.seq) // no step set it
	l.timers.reminders[r.key] = r
	l.hist.count("remind-asked", 1)
	questions := []saying{sayAskWhat, sayAskWhen}
	steps := []string{"what", "when"}
	answers := []string{r.token + " stretch", when}
	_, seq := l.conv(r)
	start := l.clk.Now()
	asked := start
	calls := l.remindStep(r, "/remind", 0, "remind", expReply, false)
	for i, answer := range answers {
		question := l.questionIn(calls, r.chat.id, questions[i])
		if question == 0 {
			l.hist.count("remind-asked-unheard", 1)
			return nil
		}
		seq++ // /remind started it, or a step moved it
		l.checkConv(r, steps[i], seq)
		if !l.between(asked) {
			l.hist.count("remind-asked-outwaited", 1)
			return nil
		}
		if l.cv.IntN(6) == 0 {
			l.cancelAsked(r, question, answer, seq)
			return nil
		}
		if i == len(answers)-1 {
			if !strings.HasPrefix(answer, "at ") {
				r.due = r.due.Add(l.clk.Now().Sub(start)) // from when the step sets it
			}
			delete(l.timers.reminders, r.key)
			r.key = fmt.Sprintf("%d:%d", r.user, l.ids.update+1) // the id the update is given
			l.timers.reminders[r.key] = r
		}
		asked = l.clk.Now()
		calls = l.remindStep(r, answer, question, "", expReply, true)
		l.hist.count("remind-asked-steps", 1)
	}
	if l.questionIn(calls, r.chat.id, sayWillRemind) != 0 {
		l.checkConv(r, "", seq) // the last step ended it
	}
	return calls
}

// between is the time a user takes to answer the question a step asked
// at asked: a few seconds to a minute, the crons due meanwhile run (and
// the operator acts, if due). Now and then meanwhile the process that
// asked dies, or the other runtime is deployed: the answer reaches a
// process that never saw the conversation. False when the answer would
// come too near the end of the question's wait (five minutes from the
// step's first try) to be sure it still waits: the user gives up.
func (l *life) between(asked time.Time) bool {
	at := l.clk.Now().Add(time.Duration(5+l.cv.IntN(55)) * time.Second)
	what, other := l.cv.IntN(6), runtime((int(l.rt)+1+l.cv.IntN(int(nRuntimes)-1))%int(nRuntimes))
	l.fireCrons(at)
	if l.clk.Now().Before(at) {
		l.clk.Set(at)
	}
	moves := l.opMoves()
	l.cutoverNow(at)
	l.operate(at)
	if l.opMoves() > moves {
		l.hist.count("remind-asked-across-cutovers", 1) // the answer goes to the other side's deployment
	}
	switch what {
	case 0:
		l.restartServing()
		l.hist.count("remind-asked-across-restarts", 1)
	case 1:
		l.switchRuntime(other)
		l.hist.count("remind-asked-across-switches", 1)
	}
	return l.clk.Now().Before(asked.Add(2 * time.Minute))
}

// cutoverNow brings an instant operator's next cutover (or rollback),
// when it is due within six hours, to at: made in no time, it comes
// between a question and its answer, which the other side's deployment
// hears, and the users see nothing of it (TestTheOperatorIsInvisible). A
// cutover with a window outwaits the question.
func (l *life) cutoverNow(at time.Time) {
	if l.op == nil || !l.op.Instant || len(l.op.plan) == 0 {
		return
	}
	if ev := &l.op.plan[0]; ev.kind == opCutover && ev.at.Before(at.Add(6*time.Hour)) {
		ev.at = at
	}
}

// opMoves is how many cutovers and rollbacks the operator has made.
func (l *life) opMoves() int {
	if l.op == nil {
		return 0
	}
	return l.op.moves
}

// restartServing ends the process of the stretch's runtime while it is
// idle (a webhook's container killed, a Lambda environment recycled, a
// poller stopped: its lease handed on), and a new one starts. The history
// names the runtime, not the process: an operator's deployments, which
// start processes of their own, stay out of what the users saw.
func (l *life) restartServing() {
	if p := l.live[l.rt]; p != nil {
		if p.stop != nil {
			p.stop()
			<-p.ran
			l.confirmAll()
		} else {
			p.kill()
		}
	}
	l.live[l.rt] = nil
	l.serving(l.rt)
	l.hist.line("restart %s", l.rt)
}

// cancelAsked is r's user sending /cancel at the question to, whose answer
// was answer, and, now and then after a confirmed /cancel, answering it
// all the same: the conversation has ended, so the answer is no step (a
// private chat hears the hint, a group nothing) and no reminder comes of
// it (r's Cancel confirmed: reminderArrived fails if one does).
func (l *life) cancelAsked(r *reminder, to int, answer string, seq int64) {
	exp := expReply
	if r.chat.kind != private {
		exp = expMaybe // a group hears nothing of a /cancel with nothing to end
	}
	calls := l.remindStep(r, "/cancel", 0, "", exp, false)
	l.hist.count("remind-asked-cancelled", 1)
	if l.questionIn(calls, r.chat.id, sayCancelled) == 0 {
		return // unheard: ended or not
	}
	r.cancelled = l.clk.Now()
	l.checkConv(r, "", seq)
	if l.cv.IntN(2) != 0 {
		return
	}
	exp, reply := expReply, 0
	if r.chat.kind != private {
		exp, reply = expSilent, to
	}
	l.remindStep(r, answer, reply, "", exp, false)
	l.hist.count("remind-asked-answered-after-cancel", 1)
}

// remindStep is r's user sending text in r's chat, a reply to the bot's
// message to when not 0; step: an answer to the conversation's question.
func (l *life) remindStep(r *reminder, text string, to int, cmd string, exp expect, step bool) []Call {
	u := l.ids.text(l.clk.Now(), r.chat, r.thread, r.user, text)
	if to != 0 {
		replyToBot(u.Message, r.chat, to, nil)
	}
	what := text
	switch {
	case step:
		what = "<remind step> " + text
	case !strings.HasPrefix(text, "/"):
		what = "<remind late answer> " + text
	}
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d from %d: %s", r.chat.id, r.thread, r.user, what), exp: exp,
		chat: r.chat, thread: r.thread, user: r.user, cmd: cmd, step: step}
	calls := l.deliver(d)
	l.remember(d)
	return calls
}

// questionIn is the id of the message in calls that says question in
// chat, or 0.
func (l *life) questionIn(calls []Call, chat int64, question saying) int {
	for _, c := range calls {
		if c.OK && c.Method == "sendMessage" && c.Chat == chat && l.says(question, c.Text) {
			return c.Message
		}
	}
	return 0
}
