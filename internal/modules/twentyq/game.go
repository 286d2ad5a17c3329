package twentyq

import (
	"context"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// exchange is one question and the answer it got.
type exchange struct {
	Q string `json:"q"`
	A string `json:"a"`
}

// game is one round, stored per chat with games.Update.
type game struct {
	Secret string     `json:"secret"`
	Asked  []exchange `json:"asked"`
	Over   bool       `json:"over"`
	Won    bool       `json:"won"`
}

// results are a chat's finished games (its own shape: questions, not tries).
type results struct{ Played, Won, Questions int }

func resultsKey(chat int64) string { return fmt.Sprintf("results:%d", chat) }

// start begins a game unless one is running; it reports whether it did.
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

// record adds an answered question to the game it was asked in (CAS: two
// questions at once both count). A game that ended or changed meanwhile
// does not take an answer about another secret.
func (m *module) record(ctx context.Context, chat int64, secret, q, a string) (string, error) {
	var reply string
	var finished *game
	err := games.Update(ctx, m.store, chat, func(g *game) (*game, error) {
		finished = nil
		if g == nil || g.Secret != secret || g.Over {
			reply = "That game has ended meanwhile."
			return nil, nil
		}
		g.Asked = append(g.Asked, exchange{Q: q, A: a})
		n := len(g.Asked)
		reply = fmt.Sprintf("%d/%d %s: %s", n, maxQuestions, q, a)
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
		return g, nil
	})
	if err == nil && finished != nil {
		m.addResult(ctx, chat, finished)
	}
	return reply, err
}

// addResult counts a finished game. The game is already saved, so a
// failure is logged, not returned (a retry would replay the last move).
func (m *module) addResult(ctx context.Context, chat int64, g *game) {
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
}
