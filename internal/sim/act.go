package sim

import (
	"fmt"
	"strings"
)

// act is one step of a day: mostly people talking to the bot, then
// pressing buttons, Telegram redelivering, chats changing and faults.
func (l *life) act() {
	switch x := l.r.IntN(1000); {
	case x < 40:
		l.telegramFault()
		l.talk()
	case x < 45:
		l.outage = 1 + l.r.IntN(4)
		l.hist.count("store-outages", 1)
		l.talk()
	case x < 150:
		l.pressOld()
	case x < 180:
		l.redeliver()
	case x < 200:
		l.chatEvent()
	case x < 215:
		l.inlineQuery()
	default:
		l.talk()
	}
}

// command is what someone types, and what the life expects of it.
type command struct {
	text   string
	what   string // text without game words
	exp    expect
	cmd    string // the counted command ("" when the bot ignores it)
	random bool
	after  func(id int64, calls []Call) // the models' observation of its answer
	// replyTo, when set, is the bot's message the text replies to (in its
	// topic): a group hears a plain message only so.
	replyTo *keyboard
}

// talk is a member of a chat sending a command.
func (l *life) talk() {
	c, thread, ok := l.world.pick(l.r)
	if !ok {
		return
	}
	user := c.members[l.r.IntN(len(c.members))]
	anonymous := l.speaksAsChat(c)
	if anonymous {
		user = c.id // the chat is who trades, plays and is counted
	}
	cmd := l.pickCommand(c, thread, user)
	if cmd.replyTo != nil {
		thread = cmd.replyTo.thread
	}
	u := l.ids.text(l.clk.Now(), c, thread, user, cmd.text)
	if cmd.replyTo != nil {
		replyToBot(u.Message, c, cmd.replyTo.message, cmd.replyTo.rows)
	}
	if anonymous {
		asChat(u.Message)
	}
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d from %d: %s", c.id, thread, user, cmd.what), exp: cmd.exp,
		chat: c, thread: thread, user: user, cmd: cmd.cmd, random: cmd.random}
	calls := l.deliver(d)
	if cmd.after != nil {
		cmd.after(u.ID, calls)
	}
	l.remember(d)
}

func (l *life) pickCommand(c *chat, thread int, user int64) command {
	plain := func(text string) command {
		name, _, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
		return command{text: text, what: text, exp: expReply, cmd: name}
	}
	switch x := l.r.IntN(100); {
	case x < 6:
		return plain("/ping")
	case x < 9:
		return plain("/help")
	case x < 11:
		return plain("/start")
	case x < 16:
		return plain("/lolschedule_today")
	case x < 23:
		return l.subscribe(c, thread, plain("/lolschedule_subscribe"), true)
	case x < 26:
		return l.subscribe(c, thread, plain("/lolschedule_unsubscribe"), false)
	case x < 55:
		// Coin's draws are made whatever is traded: the seed's life keeps
		// its shape, and the markets' stream trades gold or stocks instead.
		coin := l.trade(user, plain)
		switch l.mk.IntN(4) {
		case 0:
			return l.gold(user, plain, l.mk)
		case 1:
			return l.stock(user, plain, l.mk)
		}
		return coin
	case x < 88:
		w := l.wordle(c, user)
		if l.mk.IntN(10) < 3 {
			return l.loldle(c, user, l.mk)
		}
		return w
	case x < 90 && user == l.world.owner:
		return plain("/stats")
	case x < 92 && user == l.world.owner:
		return plain("/mstats")
	case c.kind != private && x < 96:
		return command{text: "/weather@otherbot", what: "/weather@otherbot", exp: expSilent}
	case c.kind != private:
		return command{text: "hello all", what: "hello all", exp: expSilent}
	}
	return command{text: "/nosuchcommand", what: "/nosuchcommand", exp: expReply}
}
