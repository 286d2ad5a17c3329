package trading

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"

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
	if name := displayName(r); name != "" {
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

// displayName is the speaker's name (a group's title for its anonymous
// admins), as userName cuts it.
func displayName(r *app.Request) string {
	return clip(r.Sender.DisplayName(), maxNameRunes)
}

// userName is a user's first and last name, else their @username.
func userName(u *models.User) string {
	if u == nil {
		return ""
	}
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" && u.Username != "" {
		name = "@" + u.Username
	}
	return clip(name, maxNameRunes)
}

// clip cuts s to n runes, marking the cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// inChat reports whether p was changed in the group chat.
func (p *Portfolio) inChat(chat int64) bool { return slices.Contains(p.Chats, chat) }

// portfolioUsers are the users with a portfolio in s.
func portfolioUsers(ctx context.Context, s storage.KVStore) ([]int64, error) {
	keys, err := s.List(ctx, "user:")
	if err != nil {
		return nil, fmt.Errorf("list portfolios: %w", err)
	}
	users := make([]int64, 0, len(keys))
	for _, k := range keys {
		if id, err := strconv.ParseInt(strings.TrimPrefix(k, "user:"), 10, 64); err == nil {
			users = append(users, id)
		}
	}
	return users, nil
}

// MoveChat is the portfolios' part of a module's OnChatChange: a group
// that became a supergroup keeps its members (each portfolio's Chats names
// the new id), a chat gone is forgotten. Idempotent, as the hook must be.
func MoveChat(ctx context.Context, s storage.KVStore, ch app.ChatChange) error {
	users, err := portfolioUsers(ctx, s)
	if err != nil {
		return err
	}
	var errs []error
	for _, u := range users {
		p, found, err := Load(ctx, s, u)
		if err != nil || !found || !p.inChat(ch.ChatID) {
			errs = append(errs, err)
			continue
		}
		err = storage.UpdateJSON(ctx, s, Key(u), func(p *Portfolio, found bool) (bool, error) {
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
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("move chat %d: %w", ch.ChatID, err)
	}
	return nil
}

// OnChatChange is the desk's Module.OnChatChange: it moves or forgets what
// the market keys by chat (the boards' members, the alerts).
func (d *Desk) OnChatChange(ctx context.Context, ch app.ChatChange) error {
	err := MoveChat(ctx, d.Quotes.Store, ch)
	if d.alerts != nil {
		err = errors.Join(err, d.alerts.MoveChat(ctx, ch))
	}
	return err
}
