// Package twentyq is twenty questions against Gemini: the bot thinks of
// something, players ask yes/no questions, Gemini answers them knowing the
// secret. A game belongs to its chat and lives in the module's store.
package twentyq

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "twentyq"

// Settings.
const (
	settingKey       = "GEMINI_API_KEY"
	settingURL       = "GEMINI_API_URL"
	settingModel     = "GEMINI_MODEL"
	settingThinking  = "GEMINI_THINKING"
	settingMaxOutput = "GEMINI_MAX_OUTPUT_TOKENS"
	settingRate      = "TWENTYQ_QUESTIONS_PER_MINUTE"
)

// texts are the module's words (see app.Words), with the shared game
// flow's (games.Texts).
//
//go:embed locales/*.toml
var texts embed.FS

// Factory registers the module.
var Factory = app.Factory{
	Name: Name,
	Settings: []app.Setting{
		{Name: settingKey, Secret: true, Help: "Gemini API key; without it twentyq answers that it is unavailable"},
		{Name: settingURL, Default: "https://generativelanguage.googleapis.com", Help: "Gemini API base URL"},
		{Name: settingModel, Default: "gemini-2.5-flash", Help: "Gemini model for twentyq"},
		{Name: settingThinking, Default: thinkingAuto, Help: "twentyq: how much the model thinks: auto (by model: none on 2.5 Flash), off, dynamic, a token budget, or a Gemini 3 level"},
		{Name: settingMaxOutput, Default: defaultMaxOutput, Help: "twentyq: maxOutputTokens, thinking included; must exceed a fixed thinking budget"},
		{Name: settingRate, Default: "6", Help: "questions a user may ask per minute (protects the key)"},
	},
	New: New,
}

const maxQuestions = 20

type module struct {
	store  storage.KVStore
	log    *slog.Logger
	now    func() time.Time
	gemini *gemini // nil without a key
	rate   float64 // questions per minute per user
	pick   func() string
	newID  func() int64 // the next game's ID
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	rate, err := strconv.ParseFloat(d.Settings[settingRate], 64)
	if err != nil || !(rate > 0) || math.IsInf(rate, 0) { // NaN is not > 0
		return nil, fmt.Errorf("%s: want a positive number", settingRate)
	}
	r := d.Random()
	m := &module{store: d.Store, log: d.Log, now: d.Now, rate: rate, pick: func() string { return things[r.IntN(len(things))] }, newID: r.Int64}
	model := d.Settings[settingModel]
	thinking, err := thinkingFor(model, d.Settings[settingThinking])
	if err == nil {
		err = checkFamily(model, d.Settings[settingThinking], thinking)
	}
	if err != nil {
		return nil, err
	}
	maxOutput, err := maxOutputFor(d.Settings[settingMaxOutput], thinking)
	if err != nil {
		return nil, err
	}
	if key := d.Settings[settingKey]; key != "" {
		m.gemini = &gemini{base: d.Settings[settingURL], model: model, key: key, thinking: thinking, maxOutput: maxOutput, http: d.HTTP}
	}
	return m.module(), nil
}

func (m *module) module() *app.Module {
	play := &games.Play[game, *game]{ // no buttons: only the give-up command
		Command: "twentyq", Store: m.store,
		ID:     func(g *game) int64 { return g.ID },
		Over:   func(g *game) *bool { return &g.Over },
		GaveUp: func(w app.Words, g *game) string { return w.T("gave_up", app.Args{"Secret": secretIn(w, g.Secret)}) },
		Finish: m.finish,
	}
	return &app.Module{
		ChatState: slices.Concat(games.ChatState, []string{"results:{chat}"}), // resultsKey
		Name:      Name,
		Texts:     games.Texts(texts),
		// While a game runs, a typed question or guess is asked as
		// /twentyq <question> asks it (in a group: a reply to the bot).
		OnText: play.Plain(func(string) bool { return true }, m.cmdAsk),
		Commands: []app.Command{
			{Name: "twentyq", Description: "Twenty questions: /twentyq starts, then type questions (or /twentyq <question>)", Handler: m.cmdAsk},
			play.GiveUpCommand("Give up and see what the bot was thinking of"),
			{Name: "twentyq_stats", Description: "Twenty questions results here", Handler: m.cmdStats},
		},
	}
}

// maxQuestionLen bounds a question, in characters.
const maxQuestionLen = 200

func (m *module) cmdAsk(ctx context.Context, r *app.Request) error {
	if m.gemini == nil {
		_, err := r.Reply(ctx, r.T("unavailable"))
		return err
	}
	question := strings.TrimSpace(r.Args)
	if question == "" {
		reply, err := m.startAlone(ctx, r)
		if err != nil {
			return err
		}
		_, err = r.Reply(ctx, reply)
		return err
	}
	if len([]rune(question)) > maxQuestionLen {
		_, err := r.Reply(ctx, r.T("too_long", app.Args{"Max": maxQuestionLen}))
		return err
	}
	// A question answered already, delivered again after its reply
	// failed: that answer again, without a token or a second Gemini call.
	g, err := games.Current[game](ctx, m.store, r.ChatID)
	if err != nil {
		return err
	}
	if moved, ok := games.Replayed(g, r); ok {
		// Run again after its move landed unheard: the game the move
		// ended is counted now, if it was not then.
		// A game with no id (stored before ids, or by an older binary)
		// cannot say it was counted: its first run counted it.
		if e := moved.Ended; e != nil && e.Game != 0 {
			if err := m.addResult(ctx, r.ChatID, e); err != nil {
				return err
			}
		}
		_, err := r.Reply(ctx, moved.Reply)
		return err
	}
	if ok, err := m.allow(ctx, r.UserID); err != nil {
		return err
	} else if !ok {
		_, err := r.Reply(ctx, r.T("slow_down"))
		return err
	}
	started, err := m.start(ctx, r.ChatID)
	if err != nil {
		return err
	}
	g, err = games.Current[game](ctx, m.store, r.ChatID)
	if err == nil && g == nil {
		err = fmt.Errorf("twentyq: the game just started: %w", storage.ErrNotFound)
	}
	if err != nil {
		return err
	}
	answer, err := m.gemini.ask(ctx, system(g.Secret, r.Words), question)
	var refused *noAnswer
	switch {
	case errors.As(err, &refused):
		m.log.Info("twentyq: gemini gave no answer", "why", refused.Error())
		why := r.T("why."+refused.reason, app.Args{"Detail": refused.detail})
		_, err := r.Reply(ctx, r.T("no_answer", app.Args{"Why": why}))
		return err
	case errors.Is(err, errBusy):
		_, err := r.Reply(ctx, r.T("busy"))
		return err
	case errors.Is(err, errRefused):
		m.log.Error("twentyq: gemini refused the configuration", "err", err)
		_, err := r.Reply(ctx, r.T("misconfigured"))
		return err
	case err != nil:
		m.log.Warn("twentyq: gemini failed", "err", err)
		_, err := r.Reply(ctx, r.T("failed"))
		return err
	}
	norm, ok := normalize(answer, r.Words)
	if !ok {
		m.log.Warn("twentyq: unexpected answer", "answer", answer)
		norm = "Unknown"
	}
	prefix := ""
	if started {
		prefix = r.T("start") + "\n"
	}
	reply, err := m.record(ctx, r, g.Secret, question, norm, prefix)
	if err != nil {
		return err
	}
	_, err = r.Reply(ctx, reply)
	return err
}

func (m *module) cmdStats(ctx context.Context, r *app.Request) error {
	var res results
	err := m.store.GetJSON(ctx, resultsKey(r.ChatID), &res)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		_, err := r.Reply(ctx, r.T("no_results"))
		return err
	case err != nil:
		return err
	}
	avg := "-"
	if res.Won > 0 {
		avg = locale.Float(r.Lang, float64(res.Questions)/float64(res.Won), 1)
	}
	_, err = r.Reply(ctx, r.T("results", app.Args{"Played": res.Played, "Won": res.Won, "Average": avg}))
	return err
}
