// Package apptest runs the core for tests: a memory store behind an outage
// switch, the fake Bot API, a real Telegram client and an App with the
// modules under test. Module tests drive it with Say and read Replies.
package apptest

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// Users and chats of the scenarios.
const (
	Owner int64 = 1
	Admin int64 = 2
	User  int64 = 3
	// PrivateChat is User's private chat with the bot.
	PrivateChat int64 = 3
	Group       int64 = -100
)

// Logs is a log sink safe for concurrent handlers.
type Logs = testenv.Buffer

// Bot is a running core.
type Bot struct {
	t      testing.TB
	Srv    *telegramtest.Server
	Client *telegram.Client
	Store  *storagetest.Switch
	App    *core.App
	Logs   *Logs
	Log    *slog.Logger // the app's logger, writing into Logs

	langs sync.Map // user id -> Telegram's language_code for them (Speaks)
}

// Speaks makes every update from userID carry Telegram's language_code
// code ("vi", "en-US"), as that user's client would send it.
func (b *Bot) Speaks(userID int64, code string) { b.langs.Store(userID, code) }

// withLanguage gives u's sender the language_code Speaks set for them.
func (b *Bot) withLanguage(u *models.Update) {
	var from *models.User
	switch {
	case u.Message != nil:
		from = u.Message.From
	case u.CallbackQuery != nil:
		from = &u.CallbackQuery.From
	case u.InlineQuery != nil:
		from = u.InlineQuery.From
	case u.MyChatMember != nil:
		from = &u.MyChatMember.From
	}
	if from == nil || from.LanguageCode != "" {
		return
	}
	if code, ok := b.langs.Load(from.ID); ok {
		from.LanguageCode = code.(string)
	}
}

// New starts a core with the given modules; opts come after the defaults
// (owner 1, admin 2, username miti99bot, JSON logs into Logs; the test
// fails on a log line that names a key twice).
func New(t testing.TB, modules []app.Factory, opts ...core.Option) *Bot {
	t.Helper()
	return NewWithServer(t, telegramtest.New(t), modules, opts...)
}

// NewWithServer is New with a fake Bot API the test configured itself.
func NewWithServer(t testing.TB, srv *telegramtest.Server, modules []app.Factory, opts ...core.Option) *Bot {
	t.Helper()
	return NewWithClient(t, srv, nil, modules, opts...)
}

// NewWithClient is NewWithServer with the Telegram client's own options
// too (its rates, for a benchmark at another scale). The client holds no
// group to Telegram's 20 sends a minute unless told (WithGroupLimit): a
// module's conversation in a test is faster than any group's.
func NewWithClient(t testing.TB, srv *telegramtest.Server, client []telegram.Option, modules []app.Factory, opts ...core.Option) *Bot {
	t.Helper()
	return NewOnStore(t, memory.New(), srv, client, modules, opts...)
}

// NewOnStore is NewWithClient over another store (a real server's, for a
// test that must hold on every backend).
func NewOnStore(t testing.TB, p storage.KVProvider, srv *telegramtest.Server, client []telegram.Option, modules []app.Factory, opts ...core.Option) *Bot {
	t.Helper()
	logs := &Logs{}
	t.Cleanup(func() { testenv.CheckLogLines(t, "the bot", logs.String()) }) // each key once per line
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := telegram.New(srv.Token, append([]telegram.Option{telegram.WithAPIURL(srv.URL), telegram.WithGroupLimit(0, 0), telegram.WithLogger(log)}, client...)...)
	if err != nil {
		t.Fatal(err)
	}
	store := storagetest.NewSwitch(p)
	base := []core.Option{
		core.WithModules(modules),
		core.WithOwner(Owner, Admin),
		core.WithBotUsername("miti99bot"),
		core.WithLogger(log),
	}
	a, err := core.New(store, c, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return &Bot{t: t, Srv: srv, Client: c, Store: store, App: a, Logs: logs, Log: log}
}

// Dispatcher runs the app's cron jobs on the bot's store, with now as the
// clock (the one given to core.WithClock, or time.Now).
func (b *Bot) Dispatcher(now func() time.Time) *cron.Dispatcher {
	return cron.NewDispatcher(b.App.Registry(), b.Store.For(storage.CoreNamespace), b.Log, now)
}

var updateSeq atomic.Int64

// Handle delivers u, giving it a fresh update_id unless it has one.
func (b *Bot) Handle(u *models.Update) error {
	b.t.Helper()
	if u.ID == 0 {
		u.ID = updateSeq.Add(1)
	}
	b.withLanguage(u)
	return b.App.HandleUpdate(b.t.Context(), u)
}

// Say delivers a text message from userID in chatID.
func (b *Bot) Say(chatID, userID int64, text string) error {
	b.t.Helper()
	return b.Handle(telegramtest.Text(chatID, userID, text))
}

// MustSay is Say that fails the test on error.
func (b *Bot) MustSay(chatID, userID int64, text string) {
	b.t.Helper()
	if err := b.Say(chatID, userID, text); err != nil {
		b.t.Fatalf("%q: %v", text, err)
	}
}

// Step is one message of a conversation and the reply it must get (an
// alias, so tables stay plain {text, want} pairs).
type Step = struct{ Text, Want string }

// Converse says each step's text as userID in chatID, in order, and fails
// the test at the first reply that is not the step's Want.
func (b *Bot) Converse(chatID, userID int64, steps []Step) {
	b.t.Helper()
	for _, s := range steps {
		b.Expect(chatID, userID, s.Text, s.Want)
	}
}

// Expect says text as userID in chatID and fails the test unless the
// bot's last reply is want.
func (b *Bot) Expect(chatID, userID int64, text, want string) {
	b.t.Helper()
	b.MustSay(chatID, userID, text)
	if got := b.Last(); got != want {
		b.t.Fatalf("%s:\ngot:  %q\nwant: %q", text, got, want)
	}
}

// Replies returns the texts the bot sent, in order.
func (b *Bot) Replies() []string {
	var out []string
	for _, m := range b.Srv.Messages() {
		out = append(out, m.Text)
	}
	return out
}

// Last returns the last text the bot sent ("" when none).
func (b *Bot) Last() string {
	r := b.Replies()
	if len(r) == 0 {
		return ""
	}
	return r[len(r)-1]
}

// T0 is when the module scenarios start: 2026-11-29 12:00 UTC.
var T0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// NewModule starts a core with the one module f, given settings, and a
// clock at T0 that the test moves.
func NewModule(t testing.TB, f app.Factory, settings map[string]string) (*Bot, *Clock) {
	t.Helper()
	clk := NewClock(T0)
	return New(t, []app.Factory{f}, core.WithClock(clk.Now), core.WithSettings(settings)), clk
}

// FakeAPIs serves fake on loopback for the test's duration and returns the
// settings that point a module at it: each URL setting maps to its path
// under the fake ("" for the root).
func FakeAPIs(t testing.TB, fake http.Handler, paths map[string]string) map[string]string {
	t.Helper()
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	settings := make(map[string]string, len(paths))
	for setting, path := range paths {
		settings[setting] = srv.URL + path
	}
	return settings
}
