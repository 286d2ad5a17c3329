package sim

import (
	"fmt"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// chatEvent changes a chat's life: a user blocks or unblocks the bot, a
// group removes or re-adds it, a basic group becomes a supergroup, a
// forum topic closes or reopens. Telegram tells the bot as it does
// (my_chat_member, the migration service messages); the models follow
// what the chat now is.
func (l *life) chatEvent() {
	c := l.world.chats[l.r.IntN(len(l.world.chats))]
	if c.id == l.world.owner {
		return
	}
	now := l.clk.Now()
	by := c.members[0]
	switch {
	case c.kind == private && !c.gone:
		l.fake.Block(c.id)
		l.gone(c)
		l.service(l.ids.member(now, c, by, models.ChatMemberTypeMember, models.ChatMemberTypeBanned), "blocked the bot", expSilent)
	case c.kind == private:
		l.fake.Restore(c.id)
		c.gone = false
		l.service(l.ids.member(now, c, by, models.ChatMemberTypeBanned, models.ChatMemberTypeMember), "unblocked the bot", expSilent)
	case c.gone:
		l.fake.Restore(c.id)
		c.gone = false
		l.service(l.ids.member(now, c, by, models.ChatMemberTypeLeft, models.ChatMemberTypeMember), "added the bot", expMaybe)
	case c.kind == group && !c.super && l.r.IntN(2) == 0:
		l.upgrade(c)
	case c.kind == forum && l.r.IntN(2) == 0:
		t := c.topics[1+l.r.IntN(len(c.topics)-1)]
		if c.closed == nil {
			c.closed = map[int]bool{}
		}
		if c.closed[t] {
			l.fake.ReopenThread(c.id, t)
		} else {
			l.fake.CloseTopic(c.id, t)
		}
		c.closed[t] = !c.closed[t]
		l.hist.line("topic %d/%d closed=%t", c.id, t, c.closed[t])
		l.hist.count("topics-closed-or-reopened", 1)
	default:
		name := "answer_kicked_group.json"
		if c.super {
			name = "answer_kicked_supergroup.json"
		}
		l.fake.FailChat(c.id, telegramtest.RecordedFailure(l.t, name))
		l.gone(c)
		l.service(l.ids.member(now, c, by, models.ChatMemberTypeMember, models.ChatMemberTypeBanned), "removed the bot", expSilent)
	}
}

// gone: the chat is out of reach; the bot forgets its state as it learns.
func (l *life) gone(c *chat) {
	c.gone = true
	l.timersChatGone(c)
	l.subs.forget(c.id)
	for _, g := range l.gameModels() {
		delete(g.played, c.id)
		delete(g.won, c.id)
	}
	delete(l.keyboards, c.id)
}

// upgrade turns a basic group into a supergroup, as Telegram does: sends
// to the old id are refused with the new one, and both service messages
// come.
func (l *life) upgrade(c *chat) {
	from, to := c.id, l.world.upgradeID()
	f := telegramtest.RecordedFailure(l.t, "answer_group_upgraded.json")
	l.fake.FailChat(from, telegramtest.Failure{Code: f.Code, Description: f.Description, MigrateTo: to})
	c.id, c.super = to, true
	l.subs.move(from, to)
	for _, g := range l.gameModels() {
		for _, m := range []map[int64]int{g.played, g.won} {
			if n, ok := m[from]; ok {
				m[to] = n
				delete(m, from)
			}
		}
	}
	delete(l.keyboards, from)
	l.hist.count("upgrades", 1)
	for _, u := range l.ids.migration(l.clk.Now(), from, to) {
		l.deliver(&delivery{u: u, what: fmt.Sprintf("%d became %d", from, to), exp: expSilent, chat: c})
	}
}

// service delivers a membership update of c.
func (l *life) service(u *models.Update, what string, exp expect) {
	l.hist.count(what, 1)
	l.deliver(&delivery{u: u, what: what, exp: exp})
}
