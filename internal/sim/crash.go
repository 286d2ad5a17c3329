package sim

import (
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

// pickFault draws the failure, if any, of an update's first attempt: a
// crash of the process, a store call that fails or lands unheard, a lost
// compare-and-swap, an outage from a call on, or a second process served
// the same update meanwhile. Only people's commands and presses get one
// (a membership update runs the modules' hooks at once, in no set order).
func (l *life) pickFault(d *delivery) *fault {
	if d.user == 0 || d.again {
		return nil
	}
	x := l.rf.IntN(100)
	if x >= 10 {
		return nil
	}
	mod := moduleOf(d.u)
	f := &fault{where: "core", k: 1} // the claim
	switch {
	case x < 3:
		f.kind = crashBefore + faultKind(l.rf.IntN(2))
		switch l.rf.IntN(3) {
		case 0:
			f.where, f.k = "telegram", 1+l.rf.IntN(2)
		case 1:
			if mod != "" {
				f.where, f.k = mod, 1+l.rf.IntN(3)
			}
		}
	case x < 8:
		f.kind = timeout + faultKind(l.rf.IntN(4))
		if mod != "" && l.rf.IntN(3) > 0 {
			f.where, f.k = mod, 1+l.rf.IntN(3)
		}
	default:
		f.kind = atOnce
		if mod != "" && l.rf.IntN(2) == 0 {
			f.where = mod
		}
	}
	return f
}

// moduleOf is the namespace of the module an update goes to, when it is
// one whose run the faults may cut into.
func moduleOf(u *models.Update) string {
	var text string
	switch {
	case u.Message != nil:
		text = strings.TrimPrefix(u.Message.Text, "/")
	case u.CallbackQuery != nil:
		text = u.CallbackQuery.Data
	}
	for _, m := range []string{"coin", "gold", "stock", "wordle", "loldle", "lolschedule"} {
		if strings.HasPrefix(text, m) {
			return m
		}
	}
	return ""
}

// notRecorded is the core's line for a run whose outcome never landed:
// its update is run again once its claim is stale.
const notRecorded = "could not record the update's outcome"

// excuseRepeats leaves out the replies an update got again because a run
// that had replied ended without its outcome recorded: it was killed
// after its reply landed (the caveat "a reply just before SIGKILL may
// repeat once"), or its record did not land (the core logged why). Each
// such run excuses one more of each reply (a message to the same topic, an
// answer to the same query), and nothing else; the history says so. What
// is left is what the checkers and models read.
func (l *life) excuseRepeats(d *delivery, calls []Call) []Call {
	records := l.logs.times(d.u.ID, notRecorded)
	budget := map[string]int{} // repeats excused, per reply, by the killed runs that made it
	for _, name := range l.killed {
		mine := map[string]bool{}
		for _, c := range calls {
			if k := replyKey(c); c.Proc == name && c.OK && k != "" && !mine[k] {
				mine[k] = true
				budget[k]++
			}
		}
	}
	if records == 0 && len(budget) == 0 {
		return calls
	}
	// Telegram delivering the update again later: its first reply is a
	// repeat too (the run that replied before never recorded its end).
	first := 1
	if d.again {
		first = 0
	}
	// The last reply stands: the runs that ended unrecorded replied before
	// the one that recorded its end, and when their replies differ (a
	// price source down then up) the last is what the state holds.
	seen, drop, excused := map[string]int{}, make([]bool, len(calls)), 0
	for i := len(calls) - 1; i >= 0; i-- {
		if k := replyKey(calls[i]); k != "" && calls[i].OK {
			seen[k]++
			if seen[k] > first && budget[k]+records > 0 {
				if budget[k] > 0 {
					budget[k]--
				} else {
					records--
				}
				drop[i] = true
				excused++
			}
		}
	}
	out := calls[:0:0]
	for i, c := range calls {
		if !drop[i] {
			out = append(out, c)
		}
	}
	if excused > 0 {
		l.hist.line("  excused %d repeated replies: the run that sent them ended unrecorded (killed after its reply, or its record failed)", excused)
		l.hist.count("excused-repeats", excused)
	}
	return out
}

// replyKey is what makes two calls the same reply; "" for other calls.
func replyKey(c Call) string {
	switch c.Method {
	case "sendMessage":
		return "m" + strconv.FormatInt(c.Chat, 10) + "/" + strconv.Itoa(c.Thread)
	case "answerCallbackQuery":
		return "q" + c.QueryID
	}
	return ""
}

// times is how often the bot logged msg about update id.
func (s *logSink) times(id int64, msg string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.reasons[id] {
		if m == msg {
			n++
		}
	}
	return n
}
