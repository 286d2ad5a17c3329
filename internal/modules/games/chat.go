package games

import (
	"context"
	"errors"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// ChatChanged is a game module's OnChatChange: what it keys by chat (the
// running game, the record) moves to a supergroup's new id, or is
// forgotten with a chat that is gone. Run again, it ends the same.
func ChatChanged(s storage.KVStore) func(context.Context, app.ChatChange) error {
	return func(ctx context.Context, ch app.ChatChange) error {
		for _, key := range []func(int64) string{GameKey, Key} {
			from := key(ch.ChatID)
			if ch.MovedTo != 0 {
				if err := copyOnce(ctx, s, from, key(ch.MovedTo)); err != nil {
					return err
				}
			}
			if err := s.Delete(ctx, from); err != nil {
				return err
			}
		}
		return nil
	}
}

// copyOnce writes from's value at to unless to holds one already: a game
// the supergroup began since is the newer one.
func copyOnce(ctx context.Context, s storage.KVStore, from, to string) error {
	v, err := s.Get(ctx, from)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	if err := s.CompareAndSwap(ctx, to, nil, v); err != nil && !errors.Is(err, storage.ErrConflict) {
		return err
	}
	return nil
}
