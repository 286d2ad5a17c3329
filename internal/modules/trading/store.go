package trading

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// maxRetries bounds a mutation's CAS loop.
const maxRetries = 32

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
	key := Key(userID)
	for attempt := range maxRetries {
		cur, err := s.Get(ctx, key)
		p := &Portfolio{}
		switch {
		case errors.Is(err, storage.ErrNotFound):
			cur = nil
		case err != nil:
			return nil, err
		default:
			if err := json.Unmarshal(cur, p); err != nil {
				return nil, fmt.Errorf("trading: stored portfolio of %d: %w", userID, err)
			}
		}
		if err := f(p); err != nil {
			return nil, err
		}
		next, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		err = s.CompareAndSwap(ctx, key, cur, next)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return nil, err
		}
		if err := backoff(ctx, attempt); err != nil {
			return nil, err
		}
	}
	return nil, ErrBusy
}

// backoff waits a random moment that grows with the attempt (at most
// 20 ms), so racing writers stop colliding instead of burning their
// bounded retries in lock-step.
func backoff(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(rand.Int64N(int64(min(attempt+1, 20)) * int64(time.Millisecond))))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
