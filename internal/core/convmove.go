package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// convChatChanged takes the conversations of a chat that became a
// supergroup along (with a timer of their own: the old one finds nothing
// to end), and forgets those of a chat gone for the bot. Run again, it
// finds nothing left to do.
func (a *App) convChatChanged(ctx context.Context, ch app.ChatChange) error {
	prefix := fmt.Sprintf("conv:%d:", ch.ChatID)
	keys, err := a.core.List(ctx, prefix)
	if err != nil {
		return fmt.Errorf("conversations of chat %d: %w", ch.ChatID, err)
	}
	var errs []error
	for _, key := range keys {
		if ch.MovedTo != 0 {
			if err := a.moveConv(ctx, key, fmt.Sprintf("conv:%d:%s", ch.MovedTo, strings.TrimPrefix(key, prefix))); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if err := a.core.Delete(ctx, key); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// moveConv copies the conversation waiting at from to to, unless one
// waits there already.
func (a *App) moveConv(ctx context.Context, from, to string) error {
	var old convRecord
	switch err := a.core.GetJSON(ctx, from, &old); {
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	now := a.now()
	if !old.waiting(now) {
		return nil
	}
	var moved *convRecord
	err := storage.UpdateJSON(ctx, a.core, to, func(r *convRecord, _ bool) (bool, error) {
		moved = nil // this may run again after a lost race
		if r.waiting(now) {
			return false, nil
		}
		seq := max(r.Seq, old.Seq) + 1
		r.Module, r.Step, r.State, r.Expires, r.Seq = old.Module, old.Step, old.State, old.Expires, seq
		moved = r
		return true, nil
	})
	if err != nil || moved == nil {
		return err
	}
	return a.setConvTimer(ctx, to, moved.Seq, moved.Expires)
}
