package trading

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// MaxChats bounds the groups a portfolio remembers; past it the group
// changed in longest ago is forgotten (and its board no longer shows it).
const MaxChats = 32

// maxNameRunes bounds a name on a board, so no name can fill a message.
const maxNameRunes = 24

// noteMember records, in the write of a change r made, the group r came
// from (a private chat is no group) and the user's current name.
func (p *Portfolio) noteMember(r *app.Request) {
	if name := SenderName(r.Sender); name != "" {
		p.Name = name
	}
	if r.Private || r.ChatID == 0 {
		return
	}
	p.Chats = slices.DeleteFunc(p.Chats, func(c int64) bool { return c == r.ChatID })
	p.Chats = append(p.Chats, r.ChatID)
	if len(p.Chats) > MaxChats {
		p.Chats = append([]int64(nil), p.Chats[len(p.Chats)-MaxChats:]...)
	}
}

// SenderName is how a board or an alert names an actor (a group's title
// for its anonymous admins, a button's presser): its DisplayName, cut to
// maxNameRunes, the cut marked with "…".
func SenderName(a app.Actor) string {
	s := a.DisplayName()
	if utf8.RuneCountInString(s) <= maxNameRunes {
		return s
	}
	return string([]rune(s)[:maxNameRunes-1]) + "…"
}

// inChat reports whether p was changed in the group chat.
func (p *Portfolio) inChat(chat int64) bool { return slices.Contains(p.Chats, chat) }

// OnChatChange is the desk's Module.OnChatChange: it moves or forgets what
// the market keys by chat, idempotent as the hook must be. A group that
// became a supergroup keeps its board's members (each portfolio's Chats
// names the new id) and its alerts; a chat gone is forgotten.
func (d *Desk) OnChatChange(ctx context.Context, ch app.ChatChange) error {
	err := updateEach(ctx, d.Quotes.Store, portfolioPrefix, func(p *Portfolio, found bool) (bool, error) {
		if !found || !p.inChat(ch.ChatID) {
			return false, nil
		}
		i := slices.Index(p.Chats, ch.ChatID)
		if ch.MovedTo == 0 || p.inChat(ch.MovedTo) {
			p.Chats = slices.Delete(p.Chats, i, i+1)
		} else {
			p.Chats[i] = ch.MovedTo
		}
		return true, nil
	})
	if err != nil {
		err = fmt.Errorf("move chat %d: %w", ch.ChatID, err)
	}
	if d.Alerts != nil {
		err = errors.Join(err, d.Alerts.MoveChat(ctx, ch))
	}
	return err
}

// BoardMember reports whether user is on chat's board, as the Mini App
// shows it to its members only: their portfolio names the group (they
// traded there) and, when the desk has a Bot, Telegram says they are
// still in it. Telegram sends no service message for a member leaving
// some large supergroups, so a member who left unheard is found at their
// next look, and leaves the board then (OnMemberLeft). When Telegram
// cannot say (a network failure, a rate limit), the record stands: the
// board stays theirs until Telegram answers that they left.
func (d *Desk) BoardMember(ctx context.Context, chat, user int64) (bool, error) {
	p, found, err := Load(ctx, d.Quotes.Store, user)
	switch {
	case err != nil || !found || !p.inChat(chat):
		return false, err
	case d.Bot == nil:
		return true, nil
	}
	ms, err := d.Bot.ChatMember(ctx, chat, user)
	switch {
	case errors.Is(err, app.ErrChatGone):
		return false, nil // the group is gone for the bot: no one's board
	case err != nil:
		d.Quotes.Log.Warn("board: Telegram cannot say whether a member is still in the group; the board stays theirs", "chat", chat, "user", user, "err", err)
		return true, nil
	case !ms.In():
		return false, d.OnMemberLeft(ctx, app.MemberLeft{ChatID: chat, UserID: user})
	}
	return true, nil
}

// OnMemberLeft is the desk's Module.OnMemberLeft: a user who left a group,
// or was removed from it, is off its board, and so no longer sees it in
// the Mini App (web.BoardRoute shows a board to its members only). Their
// portfolio and the other groups it names stay. Idempotent.
func (d *Desk) OnMemberLeft(ctx context.Context, m app.MemberLeft) error {
	err := storage.UpdateJSON(ctx, d.Quotes.Store, Key(m.UserID), func(p *Portfolio, found bool) (bool, error) {
		if !found || !p.inChat(m.ChatID) {
			return false, nil
		}
		p.Chats = slices.DeleteFunc(p.Chats, func(c int64) bool { return c == m.ChatID })
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("user %d left chat %d: %w", m.UserID, m.ChatID, err)
	}
	return nil
}
