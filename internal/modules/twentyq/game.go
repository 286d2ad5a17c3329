package twentyq

import (
	"context"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// exchange is one question and the answer it got.
type exchange struct {
	Q string `json:"q"`
	A string `json:"a"`
}

// game is one round, stored per chat with games.Move: a question is
// counted once however often Telegram delivers it.
type game struct {
	Secret string     `json:"secret"`
	Asked  []exchange `json:"asked"`
	Over   bool       `json:"over"`
	Won    bool       `json:"won"`
	games.LastMove
}

// results are a chat's finished games (its own shape: questions, not tries).
type results struct{ Played, Won, Questions int }

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
		return &game{Secret: m.pick()}, nil
	})
	return started, err
}

// startAlone is /twentyq without a question: a new game unless one is
// running, once per update.
func (m *module) startAlone(ctx context.Context, r *app.Request) (string, error) {
	_, reply, err := games.Move(ctx, m.store, r, func(g *game) (*game, string, error) {
		if g != nil && !g.Over {
			return nil, runningText, nil
		}
		return &game{Secret: m.pick()}, startText, nil
	})
	return reply, err
}

// record adds an answered question to the game it was asked in (CAS: two
// questions at once both count), once per update. A game that ended or
// changed meanwhile does not take an answer about another secret. prefix
// goes before the reply (the start text when the question started the
// game), and is remembered with it.
func (m *module) record(ctx context.Context, r *app.Request, secret, q, a, prefix string) (string, error) {
	var finished *game
	_, reply, err := games.Move(ctx, m.store, r, func(g *game) (*game, string, error) {
		finished = nil // this may run again after a lost race
		if g == nil || g.Secret != secret || g.Over {
			return nil, prefix + "That game has ended meanwhile.", nil
		}
		g.Asked = append(g.Asked, exchange{Q: q, A: a})
		n := len(g.Asked)
		reply := prefix + fmt.Sprintf("%d/%d %s: %s", n, maxQuestions, q, a)
		switch {
		case a == "Correct":
			g.Over, g.Won = true, true
			reply += fmt.Sprintf("\nYou got it in %d: %s!", n, g.Secret)
		case n >= maxQuestions:
			g.Over = true
			reply += "\nOut of questions. It was: " + g.Secret + "."
		}
		if g.Over {
			finished = g
		}
		return g, reply, nil
	})
	if err == nil && finished != nil {
		_ = m.addResult(ctx, r.ChatID, finished)
	}
	return reply, err
}

// addResult counts a finished game. The game is already saved, so a
// failure is logged, not returned (a retry would replay the last move).
func (m *module) addResult(ctx context.Context, chat int64, g *game) error {
	err := storage.UpdateJSON(ctx, m.store, resultsKey(chat), func(r *results, _ bool) (bool, error) {
		r.Played++
		if g.Won {
			r.Won++
			r.Questions += len(g.Asked)
		}
		return true, nil
	})
	if err != nil {
		m.log.Warn("twentyq: result not recorded", "err", err)
	}
	return nil
}
