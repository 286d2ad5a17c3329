package games

import (
	"context"
	"errors"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// GameKey is where a subject's (chat's) running game lives.
func GameKey(subject int64) string { return "game:" + strconv.FormatInt(subject, 10) }

// Update applies f to the subject's game under CAS, so two moves sent at
// once both land, each exactly once, whatever the runtime. f sees the
// current game (nil when there is none) and returns the game to store, or
// nil to leave the store as it is. After a lost race f runs again with the
// newer game, so whatever it reports to its caller must be reset first.
func Update[G any](ctx context.Context, s storage.KVStore, subject int64, f func(cur *G) (*G, error)) error {
	return storage.UpdateJSON(ctx, s, GameKey(subject), func(g *G, found bool) (bool, error) {
		cur := g
		if !found {
			cur = nil
		}
		next, err := f(cur)
		if err != nil || next == nil {
			return false, err
		}
		*g = *next
		return true, nil
	})
}

// Current reads the subject's game; nil when there is none.
func Current[G any](ctx context.Context, s storage.KVStore, subject int64) (*G, error) {
	g := new(G)
	err := s.GetJSON(ctx, GameKey(subject), g)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// GiveUpIf ends the subject's running game under CAS if it is the one
// wanted (a button's game, not a newer one), and returns it as it ended;
// nil when no such game was running. over points at the game's "over"
// flag.
func GiveUpIf[G any](ctx context.Context, s storage.KVStore, subject int64, want func(*G) bool, over func(*G) *bool) (*G, error) {
	var ended *G
	err := Update(ctx, s, subject, func(g *G) (*G, error) {
		ended = nil // this may run again after a lost race
		if g == nil || *over(g) || !want(g) {
			return nil, nil
		}
		*over(g) = true
		ended = g
		return g, nil
	})
	if err != nil {
		return nil, err
	}
	return ended, nil
}
