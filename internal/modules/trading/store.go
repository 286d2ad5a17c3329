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
