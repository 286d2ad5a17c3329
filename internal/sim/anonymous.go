package sim

import "github.com/go-telegram/bot/models"

// An anonymous admin of a supergroup speaks as the group: Telegram sends
// the message with sender_chat set to the group and from set to a
// placeholder bot every such message shares. The bot must take the group
// as the speaker (its portfolio, its games, its counts), never the
// placeholder.

// anonymousAdminID is the placeholder Telegram puts in from.
const anonymousAdminID = 1087968824

// speaksAsChat reports whether the next command in c comes from one of
// its anonymous admins: now and then in a supergroup (only a supergroup
// has them), drawn from the users' talk stream so a seed's other draws
// stay.
func (l *life) speaksAsChat(c *chat) bool {
	if chatOf(c).Type != models.ChatTypeSupergroup || l.cv.IntN(8) != 0 {
		return false
	}
	l.hist.count("anonymous-admin", 1)
	return true
}

// asChat makes msg one sent by an anonymous admin of its chat.
func asChat(msg *models.Message) {
	sc := msg.Chat
	msg.SenderChat = &sc
	msg.From = &models.User{ID: anonymousAdminID, IsBot: true, FirstName: "Group", Username: "GroupAnonymousBot"}
}
