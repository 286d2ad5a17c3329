package games

import (
	"context"
	"fmt"
	"strconv"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Toasts the buttons answer with instead of acting (data that does not
// parse gets the engine's app.StaleButton), in English: the presser reads
// the catalog's "games.stale" and "games.not_yours" in their language.
const (
	StaleToast    = "That game has moved on: this button no longer applies."
	NotYoursToast = "This button is for whoever asked to give up."
)

// Button actions, the first of the callback data's fields
// "<action>:<game id>[:<user id>]" after the module's prefix.
const (
	actGiveUp  = "g" // ask to confirm giving up
	actConfirm = "y" // give up, confirmed by the user who asked
	actKeep    = "k" // do not give up after all
	actNew     = "n" // a new game, from a finished one
)

// Play is the shared flow of a guessing game: its give-up and stats
// commands, and its buttons: "give up" on a running game's board, with a confirmation
// only the user who asked can press, and "new game" on a finished one.
// Each button names the game it belongs to, so a press on a board the game
// has moved past answers a toast instead of acting; every change goes
// through Update's CAS, so a double tap acts once, and the give-up
// command goes through Move, so a redelivery of it acts no more. G is the
// game, P its pointer type (G embeds LastMove). Its words are the module's
// catalog's (see Texts), in the language of whoever moved or pressed: the
// module's text "game" names the game in its replies.
type Play[G any, P Replayable[G]] struct {
	Command string // the game's command, "wordle": the give-up command is /wordle_giveup
	// Prefix is the module's callback prefix, e.g. "wordle:"; empty for a
	// game without buttons (its keyboards are nil).
	Prefix string
	Store  storage.KVStore
	ID     func(*G) int64
	Over   func(*G) *bool
	// Board is a running game's message; GaveUp a given-up game's; both
	// in w's language.
	Board, GaveUp func(w app.Words, g *G) string
	// Start is a new game with a fresh ID, and Started its message.
	Start   func(ctx context.Context) (*G, error)
	Started func(w app.Words, g *G) string
	// Finish counts a game that ended; an error fails the update. It
	// counts a game once however often it is called (games.Add, by the
	// game's ID): a give-up run again after its write landed unheard
	// calls it again.
	Finish func(ctx context.Context, subject int64, g *G) error
}

// StatsCommand is /<Command>_stats: the chat's record of finished games,
// as text renders it in w's language.
func (p *Play[G, P]) StatsCommand(description string, text func(w app.Words, rec Record) string) app.Command {
	return app.Command{Name: p.Command + "_stats", Description: description, Handler: func(ctx context.Context, r *app.Request) error {
		rec, found, err := Load(ctx, p.Store, r.ChatID)
		switch {
		case err != nil:
			return err
		case !found:
			_, err := r.Reply(ctx, r.T("games.none_finished", app.Args{"Game": r.T("game")}))
			return err
		}
		_, err = r.Reply(ctx, text(r.Words, rec))
		return err
	}}
}

// data is a button's callback data: ids are numbers, so it always fits
// (a test covers the longest).
func (p *Play[G, P]) data(act string, id int64, user ...int64) app.CallbackData {
	d := app.Data(p.Prefix, act, strconv.FormatInt(id, 10))
	for _, u := range user {
		d.Fields = append(d.Fields, strconv.FormatInt(u, 10))
	}
	return d
}

// Running is a running game's keyboard, in w's language.
func (p *Play[G, P]) Running(w app.Words, g *G) *models.InlineKeyboardMarkup {
	if p.Prefix == "" {
		return nil
	}
	return app.MustKeyboard([]app.Button{{Text: w.T("games.give_up"), Data: p.data(actGiveUp, p.ID(g))}})
}

// Finished is a finished game's keyboard, in w's language.
func (p *Play[G, P]) Finished(w app.Words, g *G) *models.InlineKeyboardMarkup {
	if p.Prefix == "" {
		return nil
	}
	return app.MustKeyboard([]app.Button{{Text: w.T("games.new_game"), Data: p.data(actNew, p.ID(g))}})
}

// Keyboard is the keyboard a message about g carries: give up while it
// runs, new game once it is over; in w's language.
func (p *Play[G, P]) Keyboard(w app.Words, g *G) *models.InlineKeyboardMarkup {
	if g == nil {
		return nil
	}
	if *p.Over(g) {
		return p.Finished(w, g)
	}
	return p.Running(w, g)
}

func (p *Play[G, P]) confirm(w app.Words, g *G, user int64) *models.InlineKeyboardMarkup {
	return app.MustKeyboard([]app.Button{
		{Text: w.T("games.confirm_give_up"), Data: p.data(actConfirm, p.ID(g), user)},
		{Text: w.T("games.keep_playing"), Data: p.data(actKeep, p.ID(g), user)},
	})
}

type press struct {
	act  string
	game int64
	user int64 // 0: anyone may press
}

// fields is how many fields each action's data has: give up and new game
// name the game, the confirmation's two answers the asker too.
var fields = map[string]int{actGiveUp: 2, actNew: 2, actConfirm: 3, actKeep: 3}

func (p *Play[G, P]) parse(data string) (press, error) {
	d, err := app.ParseCallback(p.Prefix, data, 2, 3)
	if err != nil {
		return press{}, err
	}
	pr := press{act: d.Fields[0]}
	if fields[pr.act] != len(d.Fields) {
		return press{}, fmt.Errorf("%w: %q: action %q with %d fields", app.ErrCallbackData, data, pr.act, len(d.Fields))
	}
	if pr.game, err = d.Int(1); err != nil {
		return press{}, err
	}
	if len(d.Fields) == 3 {
		if pr.user, err = d.Int(2); err != nil {
			return press{}, err
		}
	}
	return pr, nil
}

// Handle is the callback handler of the module's prefix. The game is the
// chat's (topic's chat's), as with the commands.
func (p *Play[G, P]) Handle(ctx context.Context, req *app.CallbackRequest) error {
	pr, err := p.parse(req.Data)
	if err != nil {
		return req.Answer(ctx, req.T(app.StaleButton))
	}
	if pr.user != 0 {
		if mine, err := req.ActsFor(ctx, pr.user); err != nil {
			return err
		} else if !mine {
			return req.Answer(ctx, req.T("games.not_yours"))
		}
	}
	subject := req.ChatID
	switch pr.act {
	case actGiveUp, actKeep:
		g, err := Current[G](ctx, p.Store, subject)
		if err != nil {
			return err
		}
		if g == nil || p.ID(g) != pr.game || *p.Over(g) {
			return req.Answer(ctx, req.T("games.stale"))
		}
		if pr.act == actKeep {
			return req.Edit(ctx, p.Board(req.Words, g), p.Running(req.Words, g))
		}
		ask := req.T("games.ask_give_up", app.Args{"Game": req.T("game")})
		return req.Edit(ctx, ask+"\n"+p.Board(req.Words, g), p.confirm(req.Words, g, req.UserID))
	case actConfirm:
		return p.confirmed(ctx, req, subject, pr.game)
	case actNew:
		return p.newGame(ctx, req, subject, pr.game)
	}
	return req.Answer(ctx, req.T(app.StaleButton))
}

// newGame starts a game after game id ended, once per press (by its
// update id): the press run again, after its message failed, starts no
// second game and sends the one it started.
func (p *Play[G, P]) newGame(ctx context.Context, req *app.CallbackRequest, subject, id int64) error {
	g, reply, err := move[G, P](ctx, p.Store, subject, req.UpdateID(), func(g *G) (*G, string, error) {
		if g != nil && (p.ID(g) != id || !*p.Over(g)) {
			return nil, "", nil // a newer game runs: the button is stale
		}
		started, err := p.Start(ctx)
		if err != nil {
			return nil, "", err
		}
		return started, p.Started(req.Words, started), nil
	})
	switch {
	case err != nil:
		return err
	case reply == "":
		return req.Answer(ctx, req.T("games.stale"))
	}
	if _, err := req.ReplyKeyboard(ctx, reply, p.Keyboard(req.Words, g)); err != nil {
		return app.Unfinished(err) // the game stands: run again, the press sends its message
	}
	return nil
}
