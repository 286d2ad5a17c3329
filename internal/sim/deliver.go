package sim

import (
	"fmt"

	"github.com/go-telegram/bot/models"
)

// expect is what an update should get back.
type expect int

const (
	expReply  expect = iota // exactly one message
	expSilent               // nothing
	expMaybe                // at most one message (a greeting, once a day)
	expPress                // exactly one answer to its callback query
	expInline               // exactly one answer to its inline query, no message
)

// delivery is one update and what the life knows about it.
type delivery struct {
	u       *models.Update
	what    string // how the history names it (no game words)
	exp     expect
	chat    *chat
	thread  int
	user    int64
	cmd     string // the command, when it is one the bot counts
	random  bool   // its texts carry wordle's random words
	step    bool   // a plain message answering a conversation's question
	again   bool   // Telegram delivering it once more
	handled bool   // the bot said it was handled
}

// maxDeliveries is how often the life's Telegram delivers an update that
// keeps failing; the core drops it after its own 5 failed runs.
const maxDeliveries = 8

// deliver hands d to the bot until it is handled (see serve), and checks
// what came back.
func (l *life) deliver(d *delivery) []Call {
	l.step++
	l.wire.setStep(l.step)
	mark := l.wire.len()
	l.hist.line("step %d update %d %s", l.step, d.u.ID, d.what)
	l.hist.count("updates", 1)
	l.current, l.killed = d.u, nil
	unread := l.logs.count(langUnread)
	handled := l.serve(d)
	l.current = nil
	if l.t.Failed() {
		// A process's run failed the test (a t.Fatal ends that run, and
		// its process): the life stops at the step it happened in.
		l.t.FailNow()
	}
	calls := l.wire.since(mark)
	l.hist.calls(calls, d.random)
	calls = l.excuseRepeats(d, calls)
	if !handled {
		l.hist.count("given-up-by-telegram", 1)
	}
	d.handled = handled
	l.pushesHeard(calls)
	l.seen(calls)
	l.timersHeard(d, calls)
	l.checkAnswers(d, calls, handled)
	chose := l.langHeard(d)
	l.checkLanguage(d, calls, l.logs.count(langUnread) > unread, chose)
	if handled && d.cmd != "" && !d.again && !l.logs.said(d.u.ID, dropped) {
		l.stats.add(d.user, d.cmd)
		l.mayLoseCount(d)
	}
	l.checkWindowCount(d)
	return calls
}

// The core's log lines that give a reason for an update left unanswered.
const (
	refused = "update ended: Telegram refuses the reply; not retried"
	dropped = "update dropped after repeated failures"
)

// checkAnswers: every update answered exactly once, or deliberately not
// with a logged reason; every press answered once.
func (l *life) checkAnswers(d *delivery, calls []Call, handled bool) {
	sent, answered := 0, 0
	for _, c := range calls {
		switch {
		case !c.OK:
		case c.Method == "sendMessage":
			sent++
		case c.Method == "answerCallbackQuery" && d.u.CallbackQuery != nil && c.QueryID == d.u.CallbackQuery.ID:
			answered++
		case c.Method == "answerInlineQuery" && d.u.InlineQuery != nil && c.QueryID == d.u.InlineQuery.ID:
			answered++
		}
	}
	excused := !handled || l.logs.said(d.u.ID, refused) || l.logs.said(d.u.ID, dropped) ||
		l.logs.said(d.u.ID, inlineLate) || l.logs.said(d.u.ID, inlineRunAgain)
	why := ""
	switch {
	case d.again && sent+answered > 0:
		why = fmt.Sprintf("a redelivered update was acted on again: %d messages, %d answers", sent, answered)
	case d.again:
	case d.exp == expReply && sent > 1, d.exp == expMaybe && sent > 1:
		why = fmt.Sprintf("%d messages for one update", sent)
	case d.exp == expReply && sent == 0 && !excused:
		why = "no answer and no logged reason"
	case d.exp == expSilent && sent > 0:
		why = fmt.Sprintf("%d messages for an update that wants none", sent)
	case d.exp == expPress && answered > 1:
		why = fmt.Sprintf("a press answered %d times", answered)
	case d.exp == expPress && answered == 0 && !excused:
		why = "a press never answered"
	case d.exp == expInline && (answered > 1 || sent > 0):
		why = fmt.Sprintf("an inline query answered %d times, with %d messages", answered, sent)
	case d.exp == expInline && answered == 0 && !excused:
		why = "an inline query never answered"
	}
	checker := "answers"
	if d.step && d.exp == expReply && sent == 0 {
		checker = LostStep
	}
	if why != "" {
		l.fail(checker, "%s: %s", d.what, why)
	}
}
