package twentyq

import (
	"context"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
)

// exchange is one question and the answer it got.
type exchange struct {
	Q string `json:"q"`
	A string `json:"a"`
}

// game is one round, stored per chat with games.Move: a question is
// counted once however often Telegram delivers it.
type game struct {
	ID     int64      `json:"id,omitempty"` // 0: a game stored before games had IDs
	Secret string     `json:"secret"`
	Asked  []exchange `json:"asked"`
	Over   bool       `json:"over"`
	Won    bool       `json:"won"`
	games.LastMove
}

// results are a chat's finished games (its own shape: questions, not
// tries). It remembers the last games counted, by ID (app.ApplyOnce): a
// move run again after its write landed unheard counts its game once.
type results struct {
	Played, Won, Questions int
	app.Once[struct{}]
}

func resultsKey(chat int64) string { return fmt.Sprintf("results:%d", chat) }

// start begins a game unless one is running; it reports whether it did.
// It is the first half of a question's move, not remembered as the move:
// a question delivered again after Gemini failed it finds the game it
// started running, and its reply goes without the start text.
func (m *module) start(ctx context.Context, chat int64) (bool, error) {
	started := false
	err := games.Update(ctx, m.store, chat, func(g *game) (*game, error) {
		started = g == nil || g.Over
		if !started {
			return nil, nil
		}
		return m.newGame(), nil
	})
	return started, err
}

// startAlone is /twentyq without a question: a new game unless one is
// running, once per update.
func (m *module) startAlone(ctx context.Context, r *app.Request) (string, error) {
	_, reply, err := games.Move(ctx, m.store, r, func(g *game) (*game, string, error) {
		if g != nil && !g.Over {
			return nil, r.T("running"), nil
		}
		return m.newGame(), r.T("start"), nil
	})
	return reply, err
}

// record adds an answered question to the game it was asked in (CAS: two
// questions at once both count), once per update. A game that ended or
// changed meanwhile does not take an answer about another secret. prefix
// goes before the reply (the start text when the question started the
// game), and is remembered with it.
func (m *module) record(ctx context.Context, r *app.Request, secret, q, a, prefix string) (string, error) {
	shown, reply, err := games.Move(ctx, m.store, r, func(g *game) (*game, string, error) {
		if g == nil || g.Secret != secret || g.Over {
			return nil, prefix + r.T("ended_meanwhile"), nil
		}
		g.Asked = append(g.Asked, exchange{Q: q, A: a})
		n := len(g.Asked)
		reply := prefix + fmt.Sprintf("%d/%d %s: %s", n, maxQuestions, q, r.T("answer."+strings.ToLower(a)))
		switch {
		case a == "Correct":
			g.Over, g.Won = true, true
			reply += "\n" + r.T("got_it", app.Args{"Questions": n, "Secret": secretIn(r.Words, g.Secret)})
		case n >= maxQuestions:
			g.Over = true
			reply += "\n" + r.T("out_of_questions", app.Args{"Secret": secretIn(r.Words, g.Secret)})
		}
		if g.Over {
			g.End(games.Ended{Game: g.ID, Won: g.Won, Tries: n})
		}
		return g, reply, nil
	})
	if err != nil {
		return "", err
	}
	return reply, m.addResult(ctx, r.ChatID, games.EndedBy(shown))
}

// newGame is a game with a fresh ID and secret.
func (m *module) newGame() *game { return &game{ID: m.newID(), Secret: m.pick()} }

// finish counts a game that ended (the give-up's Play.Finish).
func (m *module) finish(ctx context.Context, chat int64, g *game) error {
	return m.addResult(ctx, chat, &games.Ended{Game: g.ID, Won: g.Won, Tries: len(g.Asked)})
}

// addResult counts the game e that ended (nil: none did), once by its ID.
// An error fails the update: run again, its move is replayed (games.Move)
// with the game it ended (games.EndedBy), which is counted then.
func (m *module) addResult(ctx context.Context, chat int64, e *games.Ended) error {
	if e == nil {
		return nil
	}
	_, err := app.ApplyOnce(ctx, m.store, resultsKey(chat), e.Game, func(r *results, _ bool) (struct{}, error) {
		r.Played++
		if e.Won {
			r.Won++
			r.Questions += e.Tries
		}
		return struct{}{}, nil
	})
	if err != nil {
		return fmt.Errorf("twentyq: result not recorded: %w", err)
	}
	return nil
}
