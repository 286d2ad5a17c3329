// Package loldle is the League of Legends champion guessing game: each
// guess is compared with the hidden champion attribute by attribute
// (gender, positions, species, resource, range type, regions, release
// year). A game belongs to its chat (the group, or the user in a private
// chat) and lives in the module's store, changed only under CAS.
package loldle

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "loldle"

// texts are the module's words (see app.Words), with the shared game
// flow's (games.Texts).
//
//go:embed locales/*.toml
var texts embed.FS

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

type module struct {
	store  storage.KVStore
	log    *slog.Logger
	roster func() *roster
	pick   func() string // the next answer's name
	newID  func() int64  // the next game's ID
	play   *games.Play[game, *game]
}

// callbackPrefix starts the data of the module's buttons.
const callbackPrefix = "loldle:"

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	r := d.Random()
	m := &module{store: d.Store, log: d.Log, roster: embedded, newID: r.Int64}
	m.pick = func() string {
		cs := embedded().list
		return cs[r.IntN(len(cs))].Name
	}
	return m.module(), nil
}

func (m *module) module() *app.Module {
	m.play = &games.Play[game, *game]{
		Command: "loldle", Prefix: callbackPrefix, Store: m.store,
		ID:     func(g *game) int64 { return g.ID },
		Over:   func(g *game) *bool { return &g.Over },
		Board:  m.board,
		GaveUp: func(w app.Words, g *game) string { return w.T("gave_up", app.Args{"Answer": g.Answer}) },
		Start: func(ctx context.Context) (*game, error) {
			limit := 0
			g, _, err := m.playable(ctx, nil, &limit)
			return g, err
		},
		Started: func(w app.Words, g *game) string { return startText(w, g.Max) },
		Finish:  m.finish,
	}
	return &app.Module{
		ChatState: games.ChatState,
		Name:      Name,
		Texts:     games.Texts(texts),
		Callbacks: []app.Callback{{Prefix: callbackPrefix, Handler: m.play.Handle}},
		OnText:    m.play.Plain(m.namesChampion, m.cmdGuess),
		Commands: []app.Command{
			{Name: "loldle", Description: "Guess the LoL champion: /loldle, then type champion names (or /loldle <champion>)", Handler: m.cmdGuess},
			m.play.GiveUpCommand("Give up and see the champion"),
			m.play.StatsCommand("Your loldle results and streak", statsText),
			{Name: "loldle_setmax", Description: "Set the attempts per game (1-10)", Visibility: app.Private, Handler: m.cmdSetMax},
		},
	}
}

// game is one round, stored per subject with games.Move: a move is made
// once however often Telegram delivers it.
type game struct {
	// ID tells this game from the chat's next one, for its buttons.
	ID      int64    `json:"id,omitempty"`
	Answer  string   `json:"answer"`
	Guesses []string `json:"guesses"`
	Max     int      `json:"max"` // fixed when the game starts
	Over    bool     `json:"over"`
	Won     bool     `json:"won"`
	games.LastMove
}

// startText is a new game's message, with the marks' legend (once per
// game), in w's language.
func startText(w app.Words, max int) string {
	return w.T("start", app.Args{"Count": max}) + "\n" + w.T("legend")
}

// namesChampion says a plain message is a loldle guess: it names a
// champion, or the start of some (which the guess then asks about).
// Anything else is left to the other modules.
func (m *module) namesChampion(text string) bool {
	guess, candidates := m.roster().find(text)
	return guess != nil || len(candidates) > 0
}

// board is a running game at a glance: one line per guess (marks and
// names: the same in every language).
func (m *module) board(_ app.Words, g *game) string {
	answer := m.roster().get(g.Answer)
	var b strings.Builder
	for _, name := range g.Guesses {
		if c := m.roster().get(name); c != nil && answer != nil {
			b.WriteString(summary(c, compare(c, answer)) + "\n")
		}
	}
	fmt.Fprintf(&b, "%d/%d", len(g.Guesses), g.Max)
	return b.String()
}

func (m *module) cmdGuess(ctx context.Context, r *app.Request) error {
	guess, refusal := m.parseGuess(r.Words, r.Args)
	if refusal != "" {
		_, err := r.Reply(ctx, refusal)
		return err
	}
	limit := 0 // read only when a game starts, once
	shown, reply, err := games.Move(ctx, m.store, r, func(cur *game) (*game, string, error) {
		g, started, err := m.playable(ctx, cur, &limit)
		if err != nil {
			return nil, "", err
		}
		if guess == nil && started {
			return g, startText(r.Words, g.Max), nil
		}
		reply, changed := m.move(r.Words, g, guess)
		if started {
			reply = startText(r.Words, g.Max) + "\n\n" + reply
		}
		if g.Over {
			g.End(games.Ended{Game: g.ID, Won: g.Won, Tries: len(g.Guesses)})
		}
		if !changed {
			return nil, reply, nil
		}
		return g, reply, nil
	})
	if err != nil {
		return err
	}
	if err := games.Finish(ctx, m.store, r.ChatID, games.EndedBy(shown)); err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, reply, m.play.Keyboard(r.Words, shown))
	return err
}

// parseGuess finds the champion a guess names ("" is no guess: show the
// board). A name that matches none or several is answered with refusal
// and uses no try; the refusal is in w's language.
func (m *module) parseGuess(w app.Words, arg string) (guess *champion, refusal string) {
	if arg == "" {
		return nil, ""
	}
	guess, candidates := m.roster().find(arg)
	switch {
	case guess != nil:
		return guess, ""
	case len(candidates) > 0:
		return nil, w.T("which_one", app.Args{"Names": strings.Join(candidates, ", ")})
	}
	return nil, w.T("no_champion", app.Args{"Name": app.Quote(arg)})
}

// playable is the game a guess plays: the running one, or a new one when
// none runs. A game whose champion left the table (renamed, say) cannot go
// on, so it is replaced too. A new game gets the owner's attempts limit,
// read into *limit once however often the CAS loop calls this.
func (m *module) playable(ctx context.Context, cur *game, limit *int) (g *game, started bool, err error) {
	if cur != nil && !cur.Over && m.roster().get(cur.Answer) != nil {
		return cur, false, nil
	}
	if *limit == 0 {
		if *limit, err = m.maxAttempts(ctx); err != nil {
			return nil, false, err
		}
	}
	return &game{ID: m.newID(), Answer: m.pick(), Max: *limit}, true, nil
}

// move plays guess (nil: none) in g and says how it went; changed reports
// whether g took a try. The reply is in w's language.
func (m *module) move(w app.Words, g *game, guess *champion) (reply string, changed bool) {
	answer := m.roster().get(g.Answer)
	switch {
	case guess == nil:
		return m.board(w, g), false
	case slices.Contains(g.Guesses, guess.Name):
		return w.T("already_guessed", app.Args{"Name": guess.Name}) + "\n" + m.board(w, g), false
	}
	g.Guesses = append(g.Guesses, guess.Name)
	reply = table(w, guess, compare(guess, answer)) + fmt.Sprintf("\n%d/%d", len(g.Guesses), g.Max)
	switch {
	case guess == answer:
		g.Over, g.Won = true, true
		reply += "\n" + w.T("solved", app.Args{"Tries": len(g.Guesses), "Answer": answer.Name})
	case len(g.Guesses) >= g.Max:
		g.Over = true
		reply += "\n" + w.T("out_of_tries", app.Args{"Answer": answer.Name})
	}
	return reply, true
}

// finish counts a game that ended, if it was not counted yet.
func (m *module) finish(ctx context.Context, subject int64, g *game) error {
	return games.Finish(ctx, m.store, subject, &games.Ended{Game: g.ID, Won: g.Won, Tries: len(g.Guesses)})
}

// statsText is a record with the average tries of a win, in w's
// language.
func statsText(w app.Words, rec games.Record) string {
	text := rec.Summary(w)
	if avg, ok := rec.AverageTries(); ok {
		text += "\n" + w.T("average_tries", app.Args{"Average": locale.Float(w.Lang, avg, 1)})
	}
	return text
}
