package sim

import (
	"fmt"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"
)

// The core's log lines that excuse an inline query left unanswered: its
// answer refused (late: a redelivery a minute on), or a run again after
// one that had it.
const (
	inlineLate     = "inline query not answered"
	inlineRunAgain = "inline query not answered again: an earlier run had it"
)

// inlineQueries are what members type after @bot: the markets' symbols,
// a game to share, the empty query (their portfolios), and what nothing
// answers.
var inlineQueries = []string{"btc", "ETH", "gold", "FPT", "wordle", "", "what is this"}

// inline is user typing @bot and query in a chat of c.
func (n *ids) inline(now time.Time, c *chat, user int64, query string) *models.Update {
	n.query++
	typ := "sender"
	if c.kind != private {
		typ = string(chatOf(c).Type)
	}
	return &models.Update{ID: n.nextUpdate(), InlineQuery: &models.InlineQuery{
		ID: "i" + strconv.FormatInt(n.query, 10), From: n.userOf(user), Query: query, ChatType: typ,
	}}
}

// inlineQuery is a member of a chat asking an inline query: answered once,
// within Telegram's limits (the fake refuses any other answer), sending
// nothing into the chat.
func (l *life) inlineQuery() {
	c, _, ok := l.world.pick(l.r)
	if !ok {
		return
	}
	user := c.members[l.r.IntN(len(c.members))]
	query := inlineQueries[l.r.IntN(len(inlineQueries))]
	u := l.fake.AskInline(l.ids.inline(l.clk.Now(), c, user, query))
	d := &delivery{u: u, what: fmt.Sprintf("inline by %d: %q", user, query), exp: expInline, chat: c, user: user}
	for _, call := range l.deliver(d) {
		if call.Method == "answerInlineQuery" && !call.OK && !l.logs.said(u.ID, inlineLate) {
			l.fail("answers", "%s: its answer refused (%d) unlogged", d.what, call.Code)
		}
	}
	l.hist.count("inline-queries", 1)
	l.remember(d)
}
