package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"
)

// Actor is who a request speaks for: the one identity a module keys a
// speaker's state by (a portfolio, reminders, alerts) and names in what it
// sends. The engine sets it once per update (Request.Sender, UserID).
//
// A message sent on behalf of a chat acts as that chat. Telegram marks it
// with sender_chat and puts in from a placeholder every such chat shares:
// GroupAnonymousBot (1087968824) for the anonymous admins of any group,
// Channel_Bot (136817688) for a user writing as a channel. Keyed by from,
// every group's anonymous admins would be one user, spending one another's
// cash; keyed by the chat, each group's are their group.
//
// A button press always comes from a user: Telegram sends the real user
// in a callback query, even for an anonymous admin (see
// CallbackRequest.ActsFor for a press on a chat's own button).
//
// A linked channel's post that Telegram copies into the channel's
// discussion group (is_automatic_forward, from 777000) speaks for no one
// there: the engine runs no command from it, whatever its text.
type Actor struct {
	// ID is the user's id; for a chat (Chat true), the chat's id, which is
	// negative, so it never equals a user's.
	ID int64
	// Chat: the actor is a group or a channel acting as itself.
	Chat bool
	// Name is a user's first and last name, or a chat's title.
	Name string
	// Username is the @username without "@"; "" when there is none.
	Username string
}

// SenderOf is the Actor a message speaks for: its sender_chat when it has
// one, else its from; the zero Actor when it has neither.
func SenderOf(m *models.Message) Actor {
	switch {
	case m == nil:
		return Actor{}
	case m.SenderChat != nil:
		c := m.SenderChat
		name := c.Title
		if name == "" { // a private chat has no title; none is sent as one today
			name = strings.TrimSpace(c.FirstName + " " + c.LastName)
		}
		return Actor{ID: c.ID, Chat: true, Name: name, Username: c.Username}
	case m.From != nil:
		return UserActor(m.From)
	}
	return Actor{}
}

// UserActor is the Actor of a user (a button's presser).
func UserActor(u *models.User) Actor {
	if u == nil {
		return Actor{}
	}
	return Actor{ID: u.ID, Name: strings.TrimSpace(u.FirstName + " " + u.LastName), Username: u.Username}
}

// DisplayName is how a list shows the actor: its Name, else its
// @username.
func (a Actor) DisplayName() string {
	if a.Name == "" && a.Username != "" {
		return "@" + a.Username
	}
	return a.Name
}

// Mention is how a message addresses the actor: a user's @username (which
// notifies them), else their Name; a chat's Name (a chat cannot be
// notified, and its title is what its members know it by).
func (a Actor) Mention() string {
	if !a.Chat && a.Username != "" {
		return "@" + a.Username
	}
	return a.DisplayName()
}

// ActsFor reports whether this press may act for owner, the Actor.ID a
// button was made for: the presser themself, or, when owner is a chat
// (negative: a button an anonymous admin or a channel got), an
// administrator of that chat, as Telegram says now. An anonymous admin's
// press comes with their real user id, so the chat's admins are the only
// way to know it is theirs; any other member of the group is refused.
// Telegram refusing the question (the bot no longer in that chat) is a
// no; a failure to ask is an error.
func (c *CallbackRequest) ActsFor(ctx context.Context, owner int64) (bool, error) {
	switch {
	case owner == c.UserID:
		return true, nil
	case owner >= 0 || c.UserID == 0:
		return false, nil
	}
	ms, err := c.bot.ChatMember(ctx, owner, c.UserID)
	if err != nil && Permanent(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ask whether user %d administers chat %d: %w", c.UserID, owner, err)
	}
	return ms == Admin, nil
}
