package games

import (
	"context"
	"errors"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Moved is what a move earned: its reply, and the game it ended, if any
// (see End), kept with the game so that the move told again earns the same.
type Moved struct {
	Reply string `json:"text,omitempty"`
	Ended *Ended `json:"ended,omitempty"`
}

// LastMove is what a game remembers of the Telegram updates that last
// changed it (app.Once), with what each move earned. Telegram delivers an
// update again when its handling failed, the reply too (a 5xx): the game
// already holds the move then, and applying it again would be a second
// move, a new game even when the first one ended it. A game type embeds
// LastMove to be played with Move.
type LastMove struct {
	app.Once[Moved]
	// ended is the game the move being made ended (End), and on the game
	// Move returns, the one its move ended (EndedBy); never stored.
	ended *Ended
}

func (m *LastMove) lastMove() *LastMove { return m }

// End says that the move being made (in Move's f) ended the game e: the
// game itself, or the running one a new game replaces. Move keeps it with
// the move, and the game Move returns holds it (Finish counts it).
func (m *LastMove) End(e Ended) { m.ended = &e }

// Replayable is a pointer to a game type that embeds LastMove.
type Replayable[G any] interface {
	app.OnceState[G, Moved]
	lastMove() *LastMove
}

// errNoMove: f changed nothing; write nothing and remember nothing.
var errNoMove = errors.New("games: no move")

// Move applies the move a command makes to its chat's game, at most once
// per Telegram update (app.ApplyTo). f is as Update's, and also returns
// the reply the move earns; a move that changes the game is remembered
// with that reply. When the game remembers this very update (delivered
// again after its reply failed), f does not run: nothing changes, and Move
// returns the reply the move earned the first time. g is the game as it
// stands after the move (nil when there is none), for the reply's
// keyboard; EndedBy(g) is the game the move ended (see End), the first
// time and every time again.
func Move[G any, P Replayable[G]](ctx context.Context, s storage.KVStore, r *app.Request, f func(cur *G) (next *G, reply string, err error)) (g *G, reply string, err error) {
	return move[G, P](ctx, s, r.ChatID, r.UpdateID(), f)
}

// move is Move on subject's game, once per update id (a command's or a
// button press's).
func move[G any, P Replayable[G]](ctx context.Context, s storage.KVStore, subject, id int64, f func(cur *G) (next *G, reply string, err error)) (g *G, reply string, err error) {
	var (
		moved Moved
		still bool // f made no move
	)
	err = storage.UpdateJSON(ctx, s, GameKey(subject), func(cur *G, found bool) (bool, error) {
		g, still = nil, false // this may run again after a lost race
		if found {
			g = cur
		}
		out, changed, err := app.ApplyTo(P(cur), id, func(p P) (Moved, error) {
			next, earned, err := f(g)
			switch {
			case err != nil:
				return Moved{}, err
			case next == nil:
				still = true
				return Moved{Reply: earned}, errNoMove
			}
			P(next).lastMove().Once = p.lastMove().Once // a new game keeps what the one it replaces remembered
			*p = *next
			return Moved{Reply: earned, Ended: p.lastMove().ended}, nil
		})
		moved = out
		if still {
			return false, nil
		}
		g = cur
		return changed, err
	})
	if err != nil {
		return nil, "", err
	}
	if !still {
		P(g).lastMove().ended = moved.Ended
	}
	return g, moved.Reply, nil
}

// EndedBy is the game the move that left g ended, if any (see End); nil
// for no game.
func EndedBy[G any, P Replayable[G]](g *G) *Ended {
	if g == nil {
		return nil
	}
	return P(g).lastMove().ended
}

// Replayed is what r's move earned if g remembers r's update (ok false
// otherwise): a handler that must not redo work before its move (ask an
// API again) checks it first.
func Replayed[G any, P Replayable[G]](g *G, r *app.Request) (moved Moved, ok bool) {
	if g == nil {
		return Moved{}, false
	}
	return P(g).lastMove().Replay(r.UpdateID())
}
