package lolschedule

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// A subscription is one key per (chat, forum topic): subscribing is an
// insert and unsubscribing a delete, so two runtimes changing different
// subscriptions at once never touch the same value, and the daily push lists
// them by prefix. No read-modify-write of a shared list exists to lose one.
type subscriber struct {
	ChatID   int64
	ThreadID int
}

const subPrefix = "sub:"

func (s subscriber) key() string { return fmt.Sprintf("%s%d:%d", subPrefix, s.ChatID, s.ThreadID) }

func parseSubKey(k string) (subscriber, bool) {
	chat, thread, ok := strings.Cut(strings.TrimPrefix(k, subPrefix), ":")
	c, err1 := strconv.ParseInt(chat, 10, 64)
	t, err2 := strconv.Atoi(thread)
	return subscriber{ChatID: c, ThreadID: t}, ok && err1 == nil && err2 == nil
}

// subscribe reports whether the subscription is new.
func (m *module) subscribe(ctx context.Context, s subscriber) (bool, error) {
	stamp := []byte(m.now().UTC().Format("2006-01-02T15:04:05Z"))
	err := m.store.CompareAndSwap(ctx, s.key(), nil, stamp)
	if errors.Is(err, storage.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// unsubscribe reports whether there was a subscription to remove.
func (m *module) unsubscribe(ctx context.Context, s subscriber) (bool, error) {
	_, err := m.store.Get(ctx, s.key())
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, m.store.Delete(ctx, s.key())
}

func (m *module) subscribers(ctx context.Context) ([]subscriber, error) {
	keys, err := m.store.List(ctx, subPrefix)
	if err != nil {
		return nil, err
	}
	subs := make([]subscriber, 0, len(keys))
	for _, k := range keys {
		if s, ok := parseSubKey(k); ok {
			subs = append(subs, s)
		}
	}
	return subs, nil
}
