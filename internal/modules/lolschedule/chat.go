package lolschedule

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// moveMarks is the module's OnChatChange (its subscriptions are its
// ChatState, which the engine moves first): it carries the chat's "sent"
// marks to its new id, so a retry of today's push does not send there
// again; other marks (a claim in flight) go with the old id, as the send
// that holds them marks the new one; a chat gone loses them. Run twice, or
// by both runtimes at once, it ends the same.
func (m *module) moveMarks(ctx context.Context, ch app.ChatChange) error {
	keys, err := m.store.List(ctx, sentPrefix)
	if err != nil {
		return err
	}
	for _, k := range keys {
		day, s, ok := parseSentKey(k)
		if !ok || s.ChatID != ch.ChatID {
			continue
		}
		if ch.MovedTo != 0 && m.markedSent(ctx, k) {
			if err := m.copyOnce(ctx, k, sentKey(day, subscriber{ChatID: ch.MovedTo, ThreadID: s.ThreadID})); err != nil {
				return err
			}
		}
		if err := m.store.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// copyOnce writes from's value at to unless to holds one already.
func (m *module) copyOnce(ctx context.Context, from, to string) error {
	v, err := m.store.Get(ctx, from)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil // moved meanwhile by the other runtime
	case err != nil:
		return err
	}
	if err := m.store.CompareAndSwap(ctx, to, nil, v); err != nil && !errors.Is(err, storage.ErrConflict) {
		return err
	}
	return nil
}

func (m *module) markedSent(ctx context.Context, key string) bool {
	v, err := m.store.Get(ctx, key)
	if err != nil {
		return false
	}
	return app.ClaimFinished(v)
}

// parseSentKey reads "sent:<day>:<chat>:<thread>".
func parseSentKey(k string) (day string, s subscriber, ok bool) {
	rest, found := strings.CutPrefix(k, sentPrefix)
	day, rest, found2 := strings.Cut(rest, ":")
	chat, thread, found3 := strings.Cut(rest, ":")
	c, err1 := strconv.ParseInt(chat, 10, 64)
	t, err2 := strconv.Atoi(thread)
	return day, subscriber{ChatID: c, ThreadID: t}, found && found2 && found3 && err1 == nil && err2 == nil
}
