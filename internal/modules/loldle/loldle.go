// Package loldle is the League of Legends champion guessing game: each
// guess is compared with the hidden champion attribute by attribute
// (gender, positions, species, resource, range type, regions, release
// year). A game belongs to its chat (the group, or the user in a private
// chat) and lives in the module's store, changed only under CAS.
package loldle

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "loldle"

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
		Name: "loldle", Command: "loldle", Prefix: callbackPrefix, Store: m.store,
		ID:     func(g *game) int64 { return g.ID },
		Over:   func(g *game) *bool { return &g.Over },
		Board:  m.board,
		GaveUp: func(g *game) string { return "It was " + g.Answer + "." },
		Start: func(ctx context.Context) (*game, error) {
			limit := 0
			g, _, err := m.playable(ctx, nil, &limit)
			return g, err
		},
		Started: func(g *game) string { return startText(g.Max) },
		Finish:  m.finish,
	}
	return &app.Module{
		ChatState: games.ChatState,
		Name:      Name,
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

func startText(max int) string {
	return fmt.Sprintf("New loldle: guess the champion in %d tries: type a name (in a group, reply to the board) or send /loldle <champion>.\n%s", max, legend)
}

// namesChampion says a plain message is a loldle guess: it names a
// champion, or the start of some (which the guess then asks about).
// Anything else is left to the other modules.
func (m *module) namesChampion(text string) bool {
	guess, candidates := m.roster().find(text)
	return guess != nil || len(candidates) > 0
}

// board is a running game at a glance: one line per guess.
func (m *module) board(g *game) string {
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
	guess, refusal := m.parseGuess(r.Args)
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
			return g, startText(g.Max), nil
		}
		reply, changed := m.move(g, guess)
		if started {
			reply = startText(g.Max) + "\n\n" + reply
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
	_, err = r.ReplyKeyboard(ctx, reply, m.play.Keyboard(shown))
	return err
}

// parseGuess finds the champion a guess names ("" is no guess: show the
// board). A name that matches none or several is answered with refusal
// and uses no try.
func (m *module) parseGuess(arg string) (guess *champion, refusal string) {
	if arg == "" {
		return nil, ""
	}
	guess, candidates := m.roster().find(arg)
	switch {
	case guess != nil:
		return guess, ""
	case len(candidates) > 0:
		return nil, "Which one? " + strings.Join(candidates, ", ")
	}
	return nil, "No champion called " + app.Quote(arg) + ". A wrong name uses no try."
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
// whether g took a try.
func (m *module) move(g *game, guess *champion) (reply string, changed bool) {
	answer := m.roster().get(g.Answer)
	switch {
	case guess == nil:
		return m.board(g), false
	case slices.Contains(g.Guesses, guess.Name):
		return guess.Name + " was already guessed.\n" + m.board(g), false
	}
	g.Guesses = append(g.Guesses, guess.Name)
	reply = table(guess, compare(guess, answer)) + fmt.Sprintf("\n%d/%d", len(g.Guesses), g.Max)
	switch {
	case guess == answer:
		g.Over, g.Won = true, true
		reply += fmt.Sprintf("\nSolved in %d! It was %s.", len(g.Guesses), answer.Name)
	case len(g.Guesses) >= g.Max:
		g.Over = true
		reply += "\nOut of tries. It was " + answer.Name + "."
	}
	return reply, true
}

// finish counts a game that ended, if it was not counted yet.
func (m *module) finish(ctx context.Context, subject int64, g *game) error {
	return games.Finish(ctx, m.store, subject, &games.Ended{Game: g.ID, Won: g.Won, Tries: len(g.Guesses)})
}

// statsText is a record with the average tries of a win.
func statsText(rec games.Record) string {
	text := rec.Summary()
	if avg, ok := rec.AverageTries(); ok {
		text += fmt.Sprintf("\nAverage tries to win: %.1f", avg)
	}
	return text
}
