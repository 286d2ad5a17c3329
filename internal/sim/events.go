package sim

import (
	"encoding/json"
	"fmt"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// telegramFault scripts Telegram's next answer to go wrong: a 5xx, a 429
// the client waits out, one longer than its budget, a failed press answer.
func (l *life) telegramFault() {
	var f telegramtest.Failure
	method := "sendMessage"
	switch x := l.r.IntN(10); {
	case x < 4:
		f = telegramtest.Failure{Code: 500, Description: "Internal Server Error"}
	case x < 7:
		f = telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 2", RetryAfter: 2}
	case x < 8:
		f = telegramtest.RecordedFailure(l.t, "answer_flood.json") // retry_after 34: past the budget
	default:
		method, f = "answerCallbackQuery", telegramtest.Failure{Code: 502, Description: "Bad Gateway"}
	}
	l.fake.FailNext(method, f)
	l.hist.count(fmt.Sprintf("telegram-%d", f.Code), 1)
	l.hist.line("fault %s %d", method, f.Code)
}

// keyboard is a message of the bot with buttons, as the chat shows it.
type keyboard struct {
	message, thread int
	rows            [][]models.InlineKeyboardButton
}

// seen keeps the keyboards the bot's calls left in each chat.
func (l *life) seen(calls []Call) {
	for _, c := range calls {
		if !c.OK || (c.Method != "sendMessage" && c.Method != "editMessageText") {
			continue
		}
		var kb models.InlineKeyboardMarkup
		_ = json.Unmarshal([]byte(c.Markup), &kb)
		ks := l.keyboards[c.SentChat]
		if ks == nil {
			ks = map[int]keyboard{}
			l.keyboards[c.SentChat] = ks
		}
		if len(kb.InlineKeyboard) == 0 {
			delete(ks, c.Message)
			continue
		}
		ks[c.Message] = keyboard{message: c.Message, thread: c.Thread, rows: kb.InlineKeyboard}
	}
}

// pressOld is a member pressing a button of any message with buttons in
// a chat: often an old one, whose game or day has moved on.
func (l *life) pressOld() {
	c, _, ok := l.world.pick(l.r)
	if !ok || len(l.keyboards[c.id]) == 0 {
		l.talk()
		return
	}
	ids := sortedKeys(l.keyboards[c.id])
	kb := l.keyboards[c.id][ids[l.r.IntN(len(ids))]]
	if c.closed[kb.thread] {
		return
	}
	row := kb.rows[l.r.IntN(len(kb.rows))]
	btn := row[l.r.IntN(len(row))]
	user := c.members[l.r.IntN(len(c.members))]
	game := l.gameOfButton(btn.CallbackData)
	var before *storedGame
	if game != nil {
		before = l.game(game, c.id)
	}
	u := l.ids.press(l.clk.Now(), c, kb.thread, user, kb.message, btn.CallbackData)
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d press by %d on %d: %s", c.id, kb.thread, user, kb.message, btn.Text),
		exp: expPress, chat: c, thread: kb.thread, user: user, random: game != nil}
	calls := l.deliver(d)
	for _, call := range calls {
		// A toast tells too: a run again after the change landed says
		// where things stand ("Not subscribed here.").
		if call.OK && (call.Method == "editMessageText" && call.Chat == c.id || call.Method == "answerCallbackQuery") {
			l.subsHeard(topic{c.id, kb.thread}, call)
		}
	}
	if game != nil {
		l.gameMoved(game, c.id, before, true)
	}
	l.remember(d)
}

// remember keeps a handled update Telegram may deliver again.
func (l *life) remember(d *delivery) {
	if d.again || !d.handled {
		return
	}
	l.recent = append(l.recent, d)
	if len(l.recent) > 64 {
		l.recent = l.recent[1:]
	}
}

// redeliver is Telegram delivering an update the bot answered once more
// (a webhook answer lost on the way): nothing may happen twice.
func (l *life) redeliver() {
	if len(l.recent) == 0 {
		l.talk()
		return
	}
	d := *l.recent[l.r.IntN(len(l.recent))]
	d.again, d.what = true, "again: "+d.what
	l.hist.count("telegram-redeliveries", 1)
	l.deliver(&d)
}
