package timer

import (
	"context"
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// ChatChanged moves a chat's pending timers to the supergroup it became,
// or drops them when the chat is gone for the bot; one whose callback runs
// ends on its own. It is idempotent: the core may tell a change more than once, from
// both runtimes at once.
func (e *Engine) ChatChanged(ctx context.Context, ch app.ChatChange) error {
	keys, err := e.store.List(ctx, chatKeys(ch.ChatID))
	if err != nil {
		return fmt.Errorf("timers of chat %d: %w", ch.ChatID, err)
	}
	var errs []error
	for _, ck := range keys {
		errs = append(errs, e.moveOne(ctx, ck, ch))
	}
	return errors.Join(errs...)
}

func (e *Engine) moveOne(ctx context.Context, ck string, ch app.ChatChange) error {
	ptr, err := e.store.Get(ctx, ck)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	dk := string(ptr)
	var r record
	gone, running := false, false
	err = storage.Update(ctx, e.store, dk, func(cur []byte) ([]byte, error) {
		gone = cur == nil
		if gone {
			return nil, nil
		}
		var derr error
		if r, derr = decode(dk, cur); derr != nil {
			return nil, derr
		}
		// A running callback ends the timer itself (its send follows the
		// chat on its own): changing its record would fail its finish.
		running = r.state() == claim.Running
		if ch.MovedTo == 0 || r.Chat != ch.ChatID || running {
			return nil, nil
		}
		r.Chat = ch.MovedTo
		return r.encode(), nil
	})
	if err != nil {
		return err
	}
	switch {
	case gone:
	case running:
		return nil // its chat index goes when it ends
	case ch.MovedTo != 0:
		if err := e.store.Put(ctx, chatKey(ch.MovedTo, r.ID), []byte(dk)); err != nil {
			return err
		}
	default:
		if err := e.forget(ctx, dk, r); err != nil {
			return err
		}
	}
	return e.store.Delete(ctx, ck)
}

// forget deletes a pending timer of a gone chat, as Cancel would.
func (e *Engine) forget(ctx context.Context, dk string, r record) error {
	err := e.store.CompareAndDelete(ctx, dk, r.encode())
	if errors.Is(err, storage.ErrConflict) {
		return nil // taken or changed meanwhile: its tick deals with it
	} else if err != nil {
		return err
	}
	e.log.Info("timer dropped: its chat is gone", "module", r.Module, "key", r.Key, "chat_id", r.Chat)
	err = e.store.CompareAndDelete(ctx, byKey(r.Module, r.Key), []byte(dk))
	if errors.Is(err, storage.ErrConflict) {
		return nil // a newer Set holds the key
	}
	return err
}
