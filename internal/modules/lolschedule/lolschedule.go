// Package lolschedule shows the League of Legends esports schedule to
// Vietnamese users (times in ICT, UTC+7) and pushes today's matches to
// subscribed chats and forum topics every morning at 08:00 ICT.
package lolschedule

import (
	"context"
	"embed"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "lolschedule"

// Settings.
const (
	settingURL       = "LOLESPORTS_API_URL"
	settingKey       = "LOLESPORTS_API_KEY"
	settingLang      = "LOLESPORTS_LANG"
	settingPushEmpty = "LOLSCHEDULE_PUSH_EMPTY"
)

// pushJob is the daily push's cron job.
const pushJob = "lolschedule_daily_push"

// Factory registers the module.
var Factory = app.Factory{
	Name: Name,
	Settings: []app.Setting{
		{Name: settingURL, Default: "https://esports-api.lolesports.com/persisted/gw", Help: "LoL esports API base URL"},
		{Name: settingKey, Secret: true, Help: "x-api-key for the LoL esports API"},
		{Name: settingLang, Default: "en-US", Help: "language of the schedule (hl)"},
		{Name: settingPushEmpty, Default: "false", Help: "true: send the daily push even on days without matches"},
	},
	Jobs: []string{pushJob},
	New:  New,
}

type module struct {
	store     storage.KVStore
	timers    app.Timers
	bot       app.Messenger
	api       *api
	now       func() time.Time
	log       *slog.Logger
	pushEmpty bool
	owner     int64 // told once when a chat takes away the right to post
	texts     app.Texts
}

//go:embed locales/*.toml
var texts embed.FS

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	pushEmpty, err := strconv.ParseBool(d.Settings[settingPushEmpty])
	if err != nil {
		return nil, errors.New(settingPushEmpty + ": want true or false")
	}
	m := &module{
		store: d.Store, timers: d.Timers, bot: d.Bot, now: d.Now, log: d.Log, pushEmpty: pushEmpty, owner: d.OwnerID, texts: d.Texts,
		api: &api{base: strings.TrimRight(d.Settings[settingURL], "/"), key: d.Settings[settingKey], lang: d.Settings[settingLang], http: d.HTTP},
	}
	return &app.Module{
		Name:  Name,
		Texts: texts,
		Commands: []app.Command{
			{Name: "lolschedule", Description: "LoL esports matches of a day: /lolschedule [dd-mm-yyyy]", Handler: m.cmdDay},
			{Name: "lolschedule_today", Description: "Today's LoL esports matches", Handler: m.cmdToday},
			{Name: "lolschedule_week", Description: "This week's LoL esports matches (Monday to Sunday)", Handler: m.cmdWeek},
			{Name: "lolschedule_subscribe", Description: "Get today's matches here every day at 08:00", Handler: m.cmdSubscribe},
			{Name: "lolschedule_unsubscribe", Description: "Stop the daily matches here", Handler: m.cmdUnsubscribe},
		},
		Callbacks: []app.Callback{{Prefix: callbackPrefix, Handler: m.onButton}},
		// A chat's subscriptions, one per topic; the day's push keys move by hand.
		ChatState:    []string{subPrefix + "{chat}:*"},
		OnChatChange: m.moveMarks,
		OnTimer:      m.onTimer,
		// The morning push is still worth sending hours late (after a restart
		// that spanned 01:00 UTC), not the next day.
		Crons: []app.Cron{{Name: pushJob, Schedule: "0 1 * * *", Handler: m.dailyPush, CatchUp: 6 * time.Hour,
			// The run only sets a timer per chat (the timers engine sends,
			// paced); the bound leaves room for a slow store's writes.
			Timeout: app.MaxCronTimeout}},
	}, nil
}

func noMatchesText(w app.Words, day time.Time) string {
	return w.T("no_matches_day", app.Args{"Day": dayLabel(w, day)})
}

func (m *module) cmdDay(ctx context.Context, r *app.Request) error {
	day := m.now()
	if r.Args != "" {
		d, err := parseDate(r.Args)
		if err != nil {
			_, err := r.Reply(ctx, badDateText(r.Words, r.Args, err))
			return err
		}
		day = d
	}
	return m.replyDay(ctx, r, day)
}

func (m *module) cmdToday(ctx context.Context, r *app.Request) error {
	return m.replyDay(ctx, r, m.now())
}

func (m *module) replyDay(ctx context.Context, r *app.Request, t time.Time) error {
	v, err := m.dayView(ctx, r.Words, t)
	if err != nil {
		return m.sourceDown(ctx, r, err)
	}
	_, err = r.ReplyMessage(ctx, v.message())
	return err
}

func (m *module) cmdWeek(ctx context.Context, r *app.Request) error {
	v, err := m.weekView(ctx, r.Words, m.now())
	if err != nil {
		return m.sourceDown(ctx, r, err)
	}
	_, err = r.ReplyMessage(ctx, v.message())
	return err
}

// sourceDown answers when neither the API nor a usable cached copy helped.
// It is not an update failure: retrying the update would not help either.
func (m *module) sourceDown(ctx context.Context, r *app.Request, err error) error {
	var apiErr *apiError
	if !errors.As(err, &apiErr) {
		return err // the store failed: let the runtime retry
	}
	m.log.Warn("schedule unavailable", "err", err)
	_, err = r.Reply(ctx, r.T("unavailable"))
	return err
}

func (m *module) cmdSubscribe(ctx context.Context, r *app.Request) error {
	created, err := m.subscribe(ctx, subscriber{ChatID: r.ChatID, ThreadID: r.ThreadID})
	if err != nil {
		return err
	}
	text := r.T("subscribed")
	if !created {
		text = r.T("already_subscribed")
	}
	_, err = r.ReplyKeyboard(ctx, text, unsubKeyboard(r.Words))
	return err
}

func (m *module) cmdUnsubscribe(ctx context.Context, r *app.Request) error {
	removed, err := m.unsubscribe(ctx, subscriber{ChatID: r.ChatID, ThreadID: r.ThreadID})
	if err != nil {
		return err
	}
	text := r.T("unsubscribed")
	if !removed {
		text = r.T("not_subscribed")
	}
	_, err = r.Reply(ctx, text)
	return err
}
