package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
)

// ErrBusy is returned by Update when the value kept changing under it.
var ErrBusy = errors.New("storage: the value kept changing; try again")

// updateRetries bounds Update's CAS loop.
const updateRetries = 32

// Update is the read-modify-write every module needs: it reads the value
// at key (nil when there is none), calls f, and writes f's result back
// with CompareAndSwap against the bytes it read (nil-expected for a new
// key). A lost race re-reads and calls f again, so f must be a pure
// function of the value it is given; when Update returns nil, exactly one
// call of f took effect. f returns nil to write nothing, or an error to
// abort.
func Update(ctx context.Context, s KVStore, key string, f func(cur []byte) ([]byte, error)) error {
	return update(ctx, s, key, nil, false, f)
}

// UpdateFrom is Update for a caller that knows the value's likely bytes
// (it wrote them a moment ago; nil: the key is likely absent): the first
// try applies f to them and writes with one CompareAndSwap, without
// reading. When they are stale the swap fails and it goes on as Update
// does, so the guarantee is the same and the common case costs one round
// trip instead of two.
func UpdateFrom(ctx context.Context, s KVStore, key string, likely []byte, f func(cur []byte) ([]byte, error)) error {
	return update(ctx, s, key, likely, true, f)
}

func update(ctx context.Context, s KVStore, key string, likely []byte, guess bool, f func(cur []byte) ([]byte, error)) error {
	for attempt := range updateRetries {
		cur, err := likely, error(nil)
		if !guess || attempt > 0 {
			cur, err = s.Get(ctx, key)
		}
		switch {
		case errors.Is(err, ErrNotFound):
			cur = nil
		case err != nil:
			return err
		}
		next, err := f(cur)
		if err != nil || next == nil {
			return err
		}
		err = s.CompareAndSwap(ctx, key, cur, next)
		if !errors.Is(err, ErrConflict) {
			return err
		}
		if guess && attempt == 0 {
			continue // the guess was stale, not a race: read at once
		}
		// Racing writers spread out instead of burning their bounded
		// retries in lock-step, and one that keeps losing to a fast writer
		// waits long enough to get a turn.
		if err := pause.For(ctx, pause.Backoff(attempt, time.Millisecond, 64*time.Millisecond)); err != nil {
			return err
		}
	}
	return ErrBusy
}

// UpdateJSON is Update for a JSON value: f gets the value decoded into a
// fresh T (found false when there is none, T then zero) and returns
// whether to write it back.
func UpdateJSON[T any](ctx context.Context, s KVStore, key string, f func(v *T, found bool) (bool, error)) error {
	return Update(ctx, s, key, func(cur []byte) ([]byte, error) {
		v := new(T)
		if cur != nil {
			if err := json.Unmarshal(cur, v); err != nil {
				return nil, Damaged("", key, cur, fmt.Errorf("decode JSON: %w", err))
			}
		}
		write, err := f(v, cur != nil)
		if err != nil || !write {
			return nil, err
		}
		return json.Marshal(v)
	})
}
