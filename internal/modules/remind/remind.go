// Package remind sends a user's reminder back to the chat and topic it
// was asked in, at the time asked: /remind, /remind_list and a Cancel
// button each. A reminder is an app timer: fired once across replicas,
// restarts and both runtimes, and a confirmed Cancel means it never comes.
package remind

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "remind"

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

// payload is what a reminder's timer carries.
type payload struct {
	User int64  `json:"user"`
	Name string `json:"name,omitempty"` // how the reminder addresses the user
	Text string `json:"text"`
}

// asked is a user's record: it holds the user's pending reminders, in
// every chat, that the bound counts (reserve).
type asked struct {
	// The Cancel presses applied (their update ids): a press delivered
	// again knows its first run cancelled.
	app.Once[bool]
	Holds map[string]hold `json:"holds,omitempty"` // by timer key
	// Counted: Holds started from the user's timers (a record written
	// before it kept them counts them once).
	Counted bool `json:"counted,omitempty"`
}

// keep is how long a reminder's timer holds its key (the update's) after
// it came or was cancelled: longer than Telegram delivers an update
// again (a day), so a /remind told again is answered with the time its
// first delivery set and sets nothing, even once the reminder came.
const keep = 48 * time.Hour

func askedKey(user int64) string { return "asked:" + strconv.FormatInt(user, 10) }

type module struct {
	store  storage.KVStore
	timers app.Timers
	bot    app.Messenger
	now    func() time.Time
	log    *slog.Logger
	conv   app.Conversations
	texts  app.Texts
}

//go:embed locales/*.toml
var texts embed.FS

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	m := &module{store: d.Store, timers: d.Timers, bot: d.Bot, now: d.Now, log: d.Log, conv: d.Conversations, texts: d.Texts}
	return &app.Module{
		Name:  Name,
		Texts: texts,
		Commands: []app.Command{
			{Name: "remind", Description: "Remind me: /remind 10m text, in 2 hours, at 19:30, at 7pm, tomorrow 8am, on 31/01 at 9:00 (Vietnam time); /remind alone asks", Handler: m.remind},
			{Name: "remind_list", Description: "List your pending reminders in this chat, with a Cancel button each", Handler: m.list},
		},
		Callbacks: []app.Callback{{Prefix: callbackPrefix, Handler: m.cancel}},
		OnTimer:   m.fire,
		Steps:     m.steps(),
	}, nil
}

// timerKey names a reminder: its user first (List and the limit count by
// user), then the update that asked for it, so a redelivery finds the
// timer its first delivery set (kept for keep after it came).
func timerKey(user int64, id string) string { return strconv.FormatInt(user, 10) + ":" + id }

func (m *module) remind(ctx context.Context, r *app.Request) error {
	if r.Args == "" {
		return m.ask(ctx, r) // asks what, then when
	}
	now := m.now()
	at, text, err := parse(r.Lang, r.Args, now, r.Zone())
	if s, ok := why(r.Words, err); ok {
		_, err := r.Reply(ctx, s)
		return err
	} else if err != nil {
		return err
	}
	id := strconv.FormatInt(r.UpdateID(), 10)
	if r.UpdateID() == 0 {
		id = strconv.FormatInt(now.UnixNano(), 36)
	}
	key := timerKey(r.UserID, id)
	due, err := m.set(ctx, r, key, at, text)
	if err != nil || due.IsZero() {
		return err // or refused: the reply is sent
	}
	kb, err := app.Keyboard([]app.Button{{Text: r.T("cancel"), Data: cancelData(r.UserID, id)}})
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, r.T("set", app.Args{"When": when(r.Words, due, now)}), kb)
	return err
}

// set sets the reminder once per update and returns when it is due (zero:
// refused, with its reply sent). An update told again finds its timer
// holding the key (pending, or kept after it came or was cancelled) and
// gets the time its first delivery set; it is not counted again.
func (m *module) set(ctx context.Context, r *app.Request, key string, at time.Time, text string) (time.Time, error) {
	taken, err := m.timers.Keys(ctx, timerKey(r.UserID, ""))
	if err != nil {
		return time.Time{}, err
	}
	if !slices.Contains(taken, key) {
		switch err := m.reserve(ctx, r.UserID, key, at, taken); {
		case errors.Is(err, errFull):
			_, err = r.Reply(ctx, r.T("full", app.Args{"Count": maxPending}))
			return time.Time{}, err
		case err != nil:
			return time.Time{}, err
		}
	}
	body, _ := json.Marshal(payload{User: r.UserID, Name: r.Sender.Mention(), Text: text}) // plain fields
	set, err := m.timers.Set(ctx, app.Timer{Key: key, ChatID: r.ChatID, ThreadID: r.ThreadID, At: at, Payload: body, Keep: keep})
	if err != nil && !errors.Is(err, app.ErrTimerExists) {
		return time.Time{}, err
	}
	return set.At, nil // the engine keeps whole seconds, rounded up
}

// when says a time on w's reader's clock, with its date unless it is
// today there.
func when(w app.Words, at, now time.Time) string {
	l, n := w.Local(at), w.Local(now)
	if l.Format(time.DateOnly) == n.Format(time.DateOnly) {
		return w.T("when_today", app.Args{"Time": l.Format("15:04"), "Zone": w.ZoneName()})
	}
	return w.T("when_day", app.Args{"Day": day(w.Lang, l), "Time": l.Format("15:04"), "Zone": w.ZoneName()})
}

// day is t's date as lang reads it: Vietnamese through locale.Date
// (29/11/2026), English with its weekday (Sun 29 Nov 2026), as the bot
// has always written it.
func day(lang app.Lang, t time.Time) string {
	if lang == app.Vietnamese {
		return locale.Date(lang, t)
	}
	return t.Format("Mon 2 Jan 2006")
}

// fire sends a due reminder to its chat and topic. A topic gone takes it
// to the chat itself; a chat gone for good drops it (nil: not retried).
func (m *module) fire(ctx context.Context, t app.Timer) error {
	var p payload
	if err := json.Unmarshal(t.Payload, &p); err != nil {
		m.log.Error("reminder unreadable: dropped", "key", t.Key, "err", err)
		return nil
	}
	w, err := m.texts.Chat(ctx, t.ChatID)
	if err != nil {
		return err // the store's: the timer fires again
	}
	text := w.T("delivered", app.Args{"Text": p.Text})
	if p.Name != "" {
		text = w.T("delivered_for", app.Args{"Name": p.Name, "Text": p.Text})
	}
	_, err = app.SendInTopicOrChat(ctx, m.bot, app.Message{ChatID: t.ChatID, ThreadID: t.ThreadID, Text: text})
	if err != nil && app.Permanent(err) {
		m.log.Warn("reminder dropped: the chat refuses it", "chat_id", t.ChatID, "key", t.Key, "err", err)
		return nil
	}
	return err
}
