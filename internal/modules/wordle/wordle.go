// Package wordle is the word game: guess a five-letter English word in six
// tries, with green/yellow/grey feedback. A game belongs to its chat (the
// group, or the user in a private chat) and lives in the module's store.
package wordle

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "wordle"

// texts are the module's words (see app.Words), with the shared game
// flow's (games.Texts).
//
//go:embed locales/*.toml
var texts embed.FS

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

type module struct {
	store storage.KVStore
	log   *slog.Logger
	pick  func() string // the next answer
	newID func() int64  // the next game's ID
	now   func() time.Time
	play  *games.Play[game, *game]
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	r := d.Random()
	m := &module{store: d.Store, log: d.Log, pick: func() string { return answers.at(r.IntN(answers.len())) }, newID: r.Int64, now: d.Now}
	return m.module(), nil
}

// callbackPrefix starts the data of the module's buttons.
const callbackPrefix = "wordle:"

func (m *module) newGame() *game { return &game{ID: m.newID(), Answer: m.pick()} }

func (m *module) module() *app.Module {
	m.play = &games.Play[game, *game]{
		Command: "wordle", Prefix: callbackPrefix, Store: m.store,
		ID:    func(g *game) int64 { return g.ID },
		Over:  func(g *game) *bool { return &g.Over },
		Board: func(_ app.Words, g *game) string { return g.board() },
		GaveUp: func(w app.Words, g *game) string {
			return w.T("gave_up", app.Args{"Answer": strings.ToUpper(g.Answer)})
		},
		Start:   func(context.Context) (*game, error) { return m.newGame(), nil },
		Started: func(w app.Words, _ *game) string { return w.T("start") },
		Finish:  m.finish,
	}
	return &app.Module{
		ChatState: games.ChatState,
		Callbacks: []app.Callback{{Prefix: callbackPrefix, Handler: m.play.Handle}},
		Inline:    []app.Inline{m.inline()},
		Name:      Name,
		Texts:     games.Texts(texts),
		OnText:    m.play.Plain(isGuessShaped, m.cmdGuess),
		Commands: []app.Command{
			{Name: "wordle", Description: "Play Wordle: /wordle, then type five-letter guesses (or /wordle <word>)", Handler: m.cmdGuess},
			{Name: "wordle_new", Description: "Start a new Wordle", Handler: m.cmdNew},
			m.play.GiveUpCommand("Give up and see the word"),
			m.play.StatsCommand("Your Wordle results and streak", statsText),
		},
	}
}

// isGuessShaped says a plain message is a Wordle guess: one five-letter
// word. Anything else is left to the other modules (a champion's name).
func isGuessShaped(text string) bool {
	w := strings.ToLower(text)
	return len(w) == 5 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == ""
}

// checkGuess explains why a guess is refused, as a text key and its
// arguments ("" accepted); a refused guess uses no turn.
func checkGuess(w string) (key string, args app.Args) {
	switch {
	case len([]rune(w)) != 5:
		return "not_five_letters", nil
	case strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "":
		return "letters_only", nil
	case !isWord(w):
		return "not_a_word", app.Args{"Word": strconv.Quote(w)}
	}
	return "", nil
}

func (m *module) cmdGuess(ctx context.Context, r *app.Request) error {
	guess := strings.ToLower(strings.TrimSpace(r.Args))
	if guess != "" {
		if why, args := checkGuess(guess); why != "" {
			_, err := r.Reply(ctx, r.T(why, args))
			return err
		}
	}
	shown, reply, err := games.Move(ctx, m.store, r, func(g *game) (*game, string, error) {
		started := g == nil || g.Over
		if started {
			g = m.newGame()
		}
		switch {
		case guess == "" && started:
			return g, r.T("start"), nil
		case guess == "":
			return nil, g.board(), nil
		case slices.Contains(g.Guesses, guess):
			return nil, r.T("already_guessed", app.Args{"Word": strconv.Quote(guess)}) + "\n" + g.board(), nil
		}
		g.Guesses = append(g.Guesses, guess)
		reply := g.board()
		switch {
		case guess == g.Answer:
			g.Over, g.Won = true, true
			reply += "\n" + r.T("solved", app.Args{"Tries": len(g.Guesses), "Max": maxGuesses})
		case len(g.Guesses) == maxGuesses:
			g.Over = true
			reply += "\n" + r.T("out_of_tries", app.Args{"Answer": strings.ToUpper(g.Answer)})
		}
		if started {
			reply = r.T("start") + "\n" + reply
		}
		if g.Over {
			g.End(games.Ended{Game: g.ID, Won: g.Won, Tries: len(g.Guesses)})
		}
		return g, reply, nil
	})
	if err != nil {
		return err
	}
	if err := games.Finish(ctx, m.store, r.ChatID, games.EndedBy(shown)); err != nil {
		return err
	}
	if games.EndedBy(shown) != nil && shown.Over {
		if err := m.keepShared(ctx, r.UserID, shown); err != nil {
			return err
		}
	}
	_, err = r.ReplyKeyboard(ctx, reply, m.play.Keyboard(r.Words, shown))
	return err
}

// finish counts a game that ended, if it was not counted yet.
func (m *module) finish(ctx context.Context, subject int64, g *game) error {
	return games.Finish(ctx, m.store, subject, &games.Ended{Game: g.ID, Won: g.Won, Tries: len(g.Guesses)})
}

func (m *module) cmdNew(ctx context.Context, r *app.Request) error {
	started, reply, err := games.Move(ctx, m.store, r, func(g *game) (*game, string, error) {
		next := m.newGame()
		if g != nil && !g.Over && len(g.Guesses) > 0 {
			next.End(games.Ended{Game: g.ID, Tries: len(g.Guesses)}) // an abandoned game counts as lost
		}
		return next, r.T("start"), nil
	})
	if err != nil {
		return err
	}
	if err := games.Finish(ctx, m.store, r.ChatID, games.EndedBy(started)); err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, reply, m.play.Running(r.Words, started))
	return err
}

// statsText is a record with its wins by tries, in w's language.
func statsText(w app.Words, rec games.Record) string {
	var b strings.Builder
	b.WriteString(rec.Summary(w))
	for i := range maxGuesses {
		n := 0
		if i < len(rec.Dist) {
			n = rec.Dist[i]
		}
		fmt.Fprintf(&b, "\n%d: %s%d", i+1, strings.Repeat("█", n), n)
	}
	return b.String()
}
