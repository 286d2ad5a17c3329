package storagetest

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// ErrDown is what a Switch answers while it is down.
var ErrDown = errors.New("storage is down (test outage)")

// Switch wraps a provider with an outage switch, for tests of what the bot
// does while its store is unreachable.
type Switch struct {
	storage.KVProvider
	down atomic.Bool
}

// NewSwitch wraps p, initially up.
func NewSwitch(p storage.KVProvider) *Switch { return &Switch{KVProvider: p} }

// SetDown starts or ends an outage.
func (s *Switch) SetDown(down bool) { s.down.Store(down) }

func (s *Switch) err() error {
	if s.down.Load() {
		return ErrDown
	}
	return nil
}

// For returns the namespace behind the switch.
func (s *Switch) For(module string) storage.KVStore {
	return &switched{s: s, inner: s.KVProvider.For(module)}
}

// Namespaces fails while down.
func (s *Switch) Namespaces(ctx context.Context) ([]string, error) {
	if err := s.err(); err != nil {
		return nil, err
	}
	return s.KVProvider.Namespaces(ctx)
}

// Items fails while down.
func (s *Switch) Items(ctx context.Context, ns string) iter.Seq2[storage.Item, error] {
	if err := s.err(); err != nil {
		return func(yield func(storage.Item, error) bool) { yield(storage.Item{}, err) }
	}
	return s.KVProvider.Items(ctx, ns)
}

type switched struct {
	s     *Switch
	inner storage.KVStore
}

func (w *switched) Get(ctx context.Context, key string) ([]byte, error) {
	if err := w.s.err(); err != nil {
		return nil, err
	}
	return w.inner.Get(ctx, key)
}

func (w *switched) GetJSON(ctx context.Context, key string, dst any) error {
	if err := w.s.err(); err != nil {
		return err
	}
	return w.inner.GetJSON(ctx, key, dst)
}

func (w *switched) PutJSON(ctx context.Context, key string, v any) error {
	if err := w.s.err(); err != nil {
		return err
	}
	return w.inner.PutJSON(ctx, key, v)
}

func (w *switched) Put(ctx context.Context, key string, val []byte) error {
	if err := w.s.err(); err != nil {
		return err
	}
	return w.inner.Put(ctx, key, val)
}

func (w *switched) Delete(ctx context.Context, key string) error {
	if err := w.s.err(); err != nil {
		return err
	}
	return w.inner.Delete(ctx, key)
}

func (w *switched) List(ctx context.Context, prefix string) ([]string, error) {
	if err := w.s.err(); err != nil {
		return nil, err
	}
	return w.inner.List(ctx, prefix)
}

func (w *switched) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	if err := w.s.err(); err != nil {
		return err
	}
	return w.inner.CompareAndSwap(ctx, key, expected, val)
}

func (w *switched) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	if err := w.s.err(); err != nil {
		return err
	}
	return w.inner.CompareAndDelete(ctx, key, expected)
}
