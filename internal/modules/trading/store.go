package trading

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// ErrBusy is returned when a portfolio kept changing under a mutation.
var ErrBusy = errors.New("trading: the portfolio kept changing; try again")

// portfolioPrefix starts a user's portfolio record, "user:<user id>".
const portfolioPrefix = "user:"

// Key is where a user's portfolio lives in the module's store.
func Key(userID int64) string { return portfolioPrefix + strconv.FormatInt(userID, 10) }

// usersUnder are the users with a record under prefix ("user:",
// "alerts:"), each keyed by prefix and their id.
func usersUnder(ctx context.Context, s storage.KVStore, prefix string) ([]int64, error) {
	keys, err := s.List(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	users := make([]int64, 0, len(keys))
	for _, k := range keys {
		if id, err := strconv.ParseInt(strings.TrimPrefix(k, prefix), 10, 64); err == nil {
			users = append(users, id)
		}
	}
	return users, nil
}

// updateEach changes every user's record under prefix, each in its own
// swap: one that fails holds up no other, and all failures are returned.
func updateEach[T any](ctx context.Context, s storage.KVStore, prefix string, update func(v *T, found bool) (bool, error)) error {
	users, err := usersUnder(ctx, s, prefix)
	if err != nil {
		return err
	}
	var errs []error
	for _, u := range users {
		errs = append(errs, storage.UpdateJSON(ctx, s, prefix+strconv.FormatInt(u, 10), update))
	}
	return errors.Join(errs...)
}

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
