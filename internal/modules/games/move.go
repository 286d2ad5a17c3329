package games

import (
	"context"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// LastMove is what a game remembers of the Telegram update that last
// changed it, and the reply that move earned. Telegram delivers an update
// again when its handling failed, the reply too (a 5xx): the game
// already holds the move then, and applying it again would be a second
// move, a new game even when the first one ended it. A game type embeds
// LastMove to be played with Move; its JSON adds two fields, and a game
// stored without them (before, or by Update) just has no last move.
type LastMove struct {
	Update int64  `json:"last_update,omitempty"` // its update_id; 0: none known
	Reply  string `json:"last_reply,omitempty"`
	// Ended is the game the move ended, if any (see End): a run of the
	// move again, after its write landed unheard, counts it too, once.
	Ended *Ended `json:"last_ended,omitempty"`
}

func (m *LastMove) lastMove() *LastMove { return m }

// End says that the move being made (in Move's f) ended the game e: the
// game itself, or the running one a new game replaces. Move keeps it with
// the move, and the game Move returns holds it (Finish counts it).
func (m *LastMove) End(e Ended) { m.Ended = &e }

// Replayable is a pointer to a game type that embeds LastMove.
type Replayable[G any] interface {
	*G
	lastMove() *LastMove
}

// Move applies the move a command makes to its chat's game, at most once
// per Telegram update. f is as Update's, and also returns the reply the
// move earns; a move that changes the game is remembered with that reply.
// When the game's last change was this very update (delivered again after
// its reply failed), f does not run: nothing changes, and Move returns the
// reply the move earned the first time. g is the game as it stands after
// the move (nil when there is none), for the reply's keyboard; its Ended is
// the game the move ended (see End), the first time and every time again.
//
// Only the last move is remembered: an update delivered again after a
// later one changed the game is applied as a new move.
func Move[G any, P Replayable[G]](ctx context.Context, s storage.KVStore, r *app.Request, f func(cur *G) (next *G, reply string, err error)) (g *G, reply string, err error) {
	id := updateID(r)
	err = Update(ctx, s, r.ChatID, func(cur *G) (*G, error) {
		g, reply = cur, "" // this may run again after a lost race
		if again, ok := Replayed[G, P](cur, r); ok {
			reply = again
			return nil, nil
		}
		if cur != nil {
			P(cur).lastMove().Ended = nil // the last move's: this one says its own
		}
		next, earned, err := f(cur)
		reply = earned
		if err != nil || next == nil {
			return nil, err
		}
		last := LastMove{Ended: P(next).lastMove().Ended}
		if id != 0 {
			last.Update, last.Reply = id, earned
		}
		*P(next).lastMove() = last
		g = next
		return next, nil
	})
	if err != nil {
		return nil, "", err
	}
	return g, reply, nil
}

// EndedBy is the game the move that left g ended, if any (see End); nil
// for no game.
func EndedBy[G any, P Replayable[G]](g *G) *Ended {
	if g == nil {
		return nil
	}
	return P(g).lastMove().Ended
}

// Replayed is the reply r's move earned if g's last change was r's update
// (ok false otherwise): a handler that must not redo work before its move
// (ask an API again) checks it first.
func Replayed[G any, P Replayable[G]](g *G, r *app.Request) (reply string, ok bool) {
	id := updateID(r)
	if g == nil || id == 0 {
		return "", false
	}
	last := P(g).lastMove()
	if last.Update != id {
		return "", false
	}
	return last.Reply, true
}

// updateID is r's update_id; 0 for a request built without its update.
func updateID(r *app.Request) int64 {
	if r.Update == nil {
		return 0
	}
	return r.Update.ID
}
