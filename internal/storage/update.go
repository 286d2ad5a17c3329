package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// ErrBusy is returned by UpdateJSON when the value kept changing under it.
var ErrBusy = errors.New("storage: the value kept changing; try again")

// updateRetries bounds UpdateJSON's CAS loop.
const updateRetries = 32

// UpdateJSON is the read-modify-write every module needs: it reads the
// JSON value at key into a fresh T (found false when there is none), calls
// f, and writes the result back with CompareAndSwap against the bytes it
// read (nil-expected for a new key). A lost race re-reads and calls f
// again, so f must be a pure function of the value it is given; when
// UpdateJSON returns nil, exactly one call of f took effect. f returns
// false to write nothing, or an error to abort.
func UpdateJSON[T any](ctx context.Context, s KVStore, key string, f func(v *T, found bool) (bool, error)) error {
	for attempt := range updateRetries {
		cur, err := s.Get(ctx, key)
		v := new(T)
		found := true
		switch {
		case errors.Is(err, ErrNotFound):
			cur, found = nil, false
		case err != nil:
			return err
		default:
			if err := json.Unmarshal(cur, v); err != nil {
				return fmt.Errorf("storage: value at %q: %w", key, err)
			}
		}
		write, err := f(v, found)
		if err != nil || !write {
			return err
		}
		next, err := json.Marshal(v)
		if err != nil {
			return err
		}
		err = s.CompareAndSwap(ctx, key, cur, next)
		if !errors.Is(err, ErrConflict) {
			return err
		}
		if err := backoff(ctx, attempt); err != nil {
			return err
		}
	}
	return ErrBusy
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
