package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// chatPlaceholder stands for a chat's id in a Module.ChatState template.
const chatPlaceholder = "{chat}"

// chatTemplate is a parsed Module.ChatState entry: the key is
// before + chat id + after, and every key that begins so when prefix.
type chatTemplate struct {
	before, after string
	prefix        bool
}

// parseChatTemplate reads one ChatState entry, refusing one that does not
// name exactly one chat, or whose prefix of one chat would hold another's.
func parseChatTemplate(t string) (chatTemplate, error) {
	before, after, ok := strings.Cut(t, chatPlaceholder)
	if !ok || strings.Contains(after, chatPlaceholder) {
		return chatTemplate{}, fmt.Errorf("chat state %q: name %s exactly once", t, chatPlaceholder)
	}
	ct := chatTemplate{before: before, after: after}
	if rest, ok := strings.CutSuffix(after, "*"); ok {
		if rest == "" || rest[0] == '-' || (rest[0] >= '0' && rest[0] <= '9') {
			return chatTemplate{}, fmt.Errorf("chat state %q: a separator must follow %s before *, or one chat's keys are another's", t, chatPlaceholder)
		}
		ct.after, ct.prefix = rest, true
	}
	if strings.Contains(ct.after, "*") || strings.Contains(before, "*") {
		return chatTemplate{}, fmt.Errorf("chat state %q: * only at the end", t)
	}
	return ct, nil
}

func (ct chatTemplate) key(chat int64) string {
	return ct.before + strconv.FormatInt(chat, 10) + ct.after
}

// moveChatState moves what m declares in ChatState to the chat's new id,
// keeping what the new id holds, or forgets it when the chat is gone.
// Run again, it ends the same.
func (a *App) moveChatState(ctx context.Context, m *app.Module, ch app.ChatChange) error {
	if len(m.ChatState) == 0 {
		return nil
	}
	s := a.provider.For(m.Name)
	var errs []error
	for _, t := range m.ChatState {
		ct, err := parseChatTemplate(t) // the registry checked it
		if err != nil {
			errs = append(errs, err)
			continue
		}
		from := ct.key(ch.ChatID)
		keys := []string{from}
		if ct.prefix {
			if keys, err = s.List(ctx, from); err != nil {
				errs = append(errs, fmt.Errorf("chat state %q: %w", t, err))
				continue
			}
		}
		for _, k := range keys {
			if ch.MovedTo != 0 {
				if err := copyOnce(ctx, s, k, ct.key(ch.MovedTo)+strings.TrimPrefix(k, from)); err != nil {
					errs = append(errs, err)
					continue // the old key stays for the next try
				}
			}
			if err := s.Delete(ctx, k); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// copyOnce writes from's value at to unless to holds one already: what the
// supergroup began since is the newer.
func copyOnce(ctx context.Context, s storage.KVStore, from, to string) error {
	v, err := s.Get(ctx, from)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil // moved meanwhile, by the other runtime
	case err != nil:
		return err
	}
	if err := s.CompareAndSwap(ctx, to, nil, v); err != nil && !errors.Is(err, storage.ErrConflict) {
		return err
	}
	return nil
}
