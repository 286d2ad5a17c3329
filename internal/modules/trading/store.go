package trading

import (
	"context"
	"errors"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// ErrBusy is returned when a portfolio kept changing under a mutation.
var ErrBusy = errors.New("trading: the portfolio kept changing; try again")

// Key is where a user's portfolio lives in the module's store.
func Key(userID int64) string { return "user:" + strconv.FormatInt(userID, 10) }

// Load reads a portfolio; a user without one gets an empty portfolio and
// false.
func Load(ctx context.Context, s storage.KVStore, userID int64) (*Portfolio, bool, error) {
	p := &Portfolio{}
	err := s.GetJSON(ctx, Key(userID), p)
	if errors.Is(err, storage.ErrNotFound) {
		return &Portfolio{}, false, nil
	}
	return p, err == nil, err
}

// Update applies f to the user's portfolio under compare-and-swap: the
// first write is a nil-expected insert, later ones expect the bytes read.
// A lost race re-reads and re-applies f, so every call that returns nil
// applied exactly once. An error from f leaves the portfolio unchanged.
func Update(ctx context.Context, s storage.KVStore, userID int64, f func(p *Portfolio) error) (*Portfolio, error) {
	var out *Portfolio
	err := storage.UpdateJSON(ctx, s, Key(userID), func(p *Portfolio, _ bool) (bool, error) {
		out = p
		return true, f(p)
	})
	if errors.Is(err, storage.ErrBusy) {
		return nil, ErrBusy
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
