package sim

import (
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// ids hands out update ids, message ids and callback query ids in order,
// so that the same seed builds byte-identical updates (telegramtest's
// builders read the wall clock; a life must not).
type ids struct {
	update, message, query int64
	codes                  map[int64]string // each user's client's language_code (langs.go)
}

func (n *ids) nextUpdate() int64 { n.update++; return n.update }

func chatOf(c *chat) models.Chat {
	mc := models.Chat{ID: c.id, Type: models.ChatTypePrivate}
	switch {
	case c.kind == group && !c.super:
		mc.Type, mc.Title = models.ChatTypeGroup, "group"
	case c.kind != private:
		mc.Type, mc.Title, mc.IsForum = models.ChatTypeSupergroup, "supergroup", c.kind == forum
	}
	return mc
}

func userOf(id int64) *models.User {
	return &models.User{ID: id, FirstName: "U" + strconv.FormatInt(id, 10), Username: "u" + strconv.FormatInt(id, 10)}
}

// text is a message from user in c (in topic thread of a forum), with the
// bot_command entity Telegram adds to a leading command.
func (n *ids) text(now time.Time, c *chat, thread int, user int64, text string) *models.Update {
	n.message++
	msg := &models.Message{ID: int(n.message), From: n.userOf(user), Date: int(now.Unix()), Chat: chatOf(c), Text: text}
	if thread != 0 {
		msg.MessageThreadID, msg.IsTopicMessage = thread, true
	}
	if strings.HasPrefix(text, "/") {
		end := len(text)
		if i := strings.IndexByte(text, ' '); i > 0 {
			end = i
		}
		msg.Entities = []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Length: end}}
	}
	return &models.Update{ID: n.nextUpdate(), Message: msg}
}

// press is user pressing a button with data on message msgID of c.
func (n *ids) press(now time.Time, c *chat, thread int, user int64, msgID int, data string) *models.Update {
	n.query++
	m := &models.Message{ID: msgID, Chat: chatOf(c), Date: int(now.Unix())}
	if thread != 0 {
		m.MessageThreadID, m.IsTopicMessage = thread, true
	}
	return &models.Update{ID: n.nextUpdate(), CallbackQuery: &models.CallbackQuery{
		ID: "q" + strconv.FormatInt(n.query, 10), From: *n.userOf(user), ChatInstance: strconv.FormatInt(c.id, 10), Data: data,
		Message: models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage, Message: m},
	}}
}

// member is the bot's own membership in c changing from was to now.
func (n *ids) member(now time.Time, c *chat, by int64, was, is models.ChatMemberType) *models.Update {
	return &models.Update{ID: n.nextUpdate(), MyChatMember: &models.ChatMemberUpdated{
		Chat: chatOf(c), From: *n.userOf(by), Date: int(now.Unix()),
		OldChatMember: memberOf(was), NewChatMember: memberOf(is),
	}}
}

func memberOf(t models.ChatMemberType) models.ChatMember {
	bot := &models.User{ID: botID, IsBot: true, FirstName: "miti99bot", Username: "miti99bot"}
	m := models.ChatMember{Type: t}
	switch t {
	case models.ChatMemberTypeMember:
		m.Member = &models.ChatMemberMember{User: bot}
	case models.ChatMemberTypeLeft:
		m.Left = &models.ChatMemberLeft{User: bot}
	case models.ChatMemberTypeBanned:
		m.Banned = &models.ChatMemberBanned{User: bot}
	}
	return m
}

// migration is the pair of service messages of a group that became the
// supergroup to: migrate_to_chat_id in the old chat, migrate_from in the new.
func (n *ids) migration(now time.Time, from, to int64) []*models.Update {
	n.message += 2
	return []*models.Update{
		{ID: n.nextUpdate(), Message: &models.Message{ID: int(n.message - 1), Date: int(now.Unix()),
			Chat: models.Chat{ID: from, Type: models.ChatTypeGroup}, MigrateToChatID: to}},
		{ID: n.nextUpdate(), Message: &models.Message{ID: int(n.message), Date: int(now.Unix()),
			Chat: models.Chat{ID: to, Type: models.ChatTypeSupergroup}, MigrateFromChatID: from}},
	}
}

// botID is the fake's bot (telegramtest's default).
const botID = 123456
