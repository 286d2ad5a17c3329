package core

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// langChatState is where the engine keeps a chat's language, in its own
// namespace; moved with the chat like a module's ChatState.
const langChatState = "lang:{chat}"

// langModule is the engine's language state as a ChatState declaration,
// for the one rule that moves and forgets a chat's keys.
var langModule = &app.Module{Name: storage.CoreNamespace, ChatState: []string{langChatState}}

func langKey(chat int64) string { return "lang:" + strconv.FormatInt(chat, 10) }

// langRecord is what decides a chat's language: its choice (/language;
// a private chat's is its user's), else in a group the language of who
// added the bot, else in a private chat the user's client's.
type langRecord struct {
	Choice  app.Lang `json:"choice,omitempty"`
	AddedBy app.Lang `json:"added_by,omitempty"`
	Client  app.Lang `json:"client,omitempty"`
	// Zone is the clock the chat chose (/timezone; locale.ParseZone's
	// name), "" for Vietnam's.
	Zone string `json:"zone,omitempty"`
}

func (r langRecord) zone() *time.Location { return locale.LoadZone(r.Zone) }

// lang is the record's language; client is the client's language_code
// of the update at hand ("" for none), which a record's own choice
// overrides and a stored Client stands in for.
func (r langRecord) lang(private bool, client string) app.Lang {
	switch {
	case r.Choice.Valid():
		return r.Choice
	case !private && r.AddedBy.Valid():
		return r.AddedBy
	case private && client != "":
		return locale.FromTelegram(client)
	case private && r.Client.Valid():
		return r.Client
	}
	return app.English
}

// langTTL is how long a process trusts the language it read of a chat: a
// choice made through another process (a replica, the other runtime) is
// heard within it, and a chat's updates within it cost no read.
const langTTL = time.Minute

// langCache is the chats' language records this process read or wrote
// lately, at most langCacheMax of them.
type langCache struct {
	mu sync.Mutex
	m  map[int64]langCached
}

type langCached struct {
	rec langRecord
	at  time.Time
}

const langCacheMax = 10000

func (c *langCache) get(chat int64, now time.Time) (langRecord, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[chat]
	if !ok || now.Sub(e.at) >= langTTL || now.Before(e.at) {
		return langRecord{}, false
	}
	return e.rec, true
}

func (c *langCache) put(chat int64, rec langRecord, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= langCacheMax {
		c.m = map[int64]langCached{} // a crude bound: the next reads fill it again
	}
	c.m[chat] = langCached{rec: rec, at: now}
}

func (c *langCache) forget(chat int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, chat)
}

// langRecordOf reads a chat's language record, from the cache when fresh.
func (a *App) langRecordOf(ctx context.Context, chat int64) (langRecord, error) {
	now := a.now()
	if rec, ok := a.langs.get(chat, now); ok {
		return rec, nil
	}
	var rec langRecord
	err := a.core.GetJSON(ctx, langKey(chat), &rec)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return langRecord{}, err
	}
	a.langs.put(chat, rec, now)
	return rec, nil
}

// setField sets one field of a chat's language record (its languages,
// its clock) to v under CAS, writing only when it changes.
func setField[V comparable](ctx context.Context, a *App, chat int64, field func(r *langRecord) *V, v V) error {
	var out langRecord
	err := storage.UpdateJSON(ctx, a.core, langKey(chat), func(r *langRecord, _ bool) (bool, error) {
		p := field(r)
		changed := *p != v
		*p = v
		out = *r
		return changed, nil
	})
	if err != nil {
		a.langs.forget(chat)
		return err
	}
	a.langs.put(chat, out, a.now())
	return nil
}

// ChooseLang records lang as chat's choice (a private chat's is its
// user's): every later update of the chat, and every timer or push to it,
// speaks it.
func (a *App) ChooseLang(ctx context.Context, chat int64, lang app.Lang) error {
	return setField(ctx, a, chat, func(r *langRecord) *app.Lang { return &r.Choice }, lang)
}

// readerOf are the engine's words for whoever reads the answer to an
// update: its language (see langRecord) and its chat's clock.
func (a *App) readerOf(ctx context.Context, u *models.Update) app.Words {
	lang, zone := a.langOf(ctx, u)
	return a.words(storage.CoreNamespace, lang).InZone(zone)
}

// langOf is the language an update is answered in (see langRecord) and
// the clock its chat reads. A store that cannot be read leaves the update
// in its client's language and Vietnam's time: better than failing an
// update over its wording.
func (a *App) langOf(ctx context.Context, u *models.Update) (app.Lang, *time.Location) {
	var (
		from    *models.User
		chat    int64
		private bool
	)
	switch {
	case u.Message != nil:
		from, chat, private = u.Message.From, u.Message.Chat.ID, u.Message.Chat.Type == models.ChatTypePrivate
	case u.CallbackQuery != nil:
		from = &u.CallbackQuery.From
		if m := u.CallbackQuery.Message.Message; m != nil {
			chat, private = m.Chat.ID, m.Chat.Type == models.ChatTypePrivate
		} else if m := u.CallbackQuery.Message.InaccessibleMessage; m != nil {
			chat, private = m.Chat.ID, m.Chat.Type == models.ChatTypePrivate
		}
	case u.InlineQuery != nil:
		// An inline answer speaks its asker's language: their private
		// chat's choice, else their client's.
		from, private = u.InlineQuery.From, true
		if from != nil {
			chat = from.ID
		}
	}
	client := ""
	if from != nil {
		client = from.LanguageCode
	}
	if chat == 0 {
		return locale.FromTelegram(client), locale.Vietnam
	}
	rec, err := a.langRecordOf(ctx, chat)
	if err != nil {
		a.log.Warn("could not read the chat's language; answering in its client's", "chat_id", chat, "err", err)
		if private {
			return locale.FromTelegram(client), locale.Vietnam
		}
		return app.English, locale.Vietnam
	}
	return rec.lang(private, client), rec.zone()
}

// UserLang is the language user reads outside a chat (the Mini App):
// their private chat's, as its updates are answered in; client is their
// client's language_code ("" for none). A store that cannot be read
// leaves them their client's, as langOf does.
func (a *App) UserLang(ctx context.Context, user int64, client string) app.Lang {
	rec, err := a.langRecordOf(ctx, user)
	if err != nil {
		a.log.Warn("could not read the user's language; answering in their client's", "user_id", user, "err", err)
		return locale.FromTelegram(client)
	}
	return rec.lang(true, client)
}

// UserZone is the clock user reads outside a chat (the Mini App): their
// private chat's /timezone choice, else Vietnam's, also when the store
// cannot be read.
func (a *App) UserZone(ctx context.Context, user int64) *time.Location {
	rec, err := a.langRecordOf(ctx, user)
	if err != nil {
		return locale.Vietnam
	}
	return rec.zone()
}

// keepClientLang makes act, a message's, first keep its private chat's
// client language (noteClient).
func (a *App) keepClientLang(act *action, u *models.Update) {
	if u.Message == nil {
		return
	}
	run := act.run
	act.run = func(ctx context.Context) error {
		a.noteClient(ctx, u)
		return run(ctx)
	}
}

// noteClient keeps a private chat's client language, so a timer or push
// to the chat speaks it too; written only when it changed.
func (a *App) noteClient(ctx context.Context, u *models.Update) {
	m := u.Message
	if m == nil || m.From == nil || m.Chat.Type != models.ChatTypePrivate || m.From.LanguageCode == "" {
		return
	}
	lang := locale.FromTelegram(m.From.LanguageCode)
	if rec, err := a.langRecordOf(ctx, m.Chat.ID); err != nil || rec.Client == lang {
		return
	}
	if err := setField(ctx, a, m.Chat.ID, func(r *langRecord) *app.Lang { return &r.Client }, lang); err != nil {
		a.log.Warn("could not keep the chat's client language", "chat_id", m.Chat.ID, "err", err)
	}
}

// noteAddedBy keeps the language of who added the bot to a group, the
// group's language until an admin chooses one.
func (a *App) noteAddedBy(ctx context.Context, chat int64, lang app.Lang) error {
	return setField(ctx, a, chat, func(r *langRecord) *app.Lang { return &r.AddedBy }, lang)
}

// chatLang is the language a chat is spoken to in without an update (a
// timer, a push, a time-out).
func (a *App) chatLang(ctx context.Context, chat int64) (app.Lang, error) {
	rec, err := a.langRecordOf(ctx, chat)
	if err != nil {
		return app.English, err
	}
	return rec.lang(chat > 0, ""), nil
}
