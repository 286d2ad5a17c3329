package storagetest

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Counting wraps a provider and counts every KVStore call: on a remote
// backend each is one round trip. With a latency, each call also waits
// that long first, as a store that far away makes it.
type Counting struct {
	storage.KVProvider
	latency time.Duration
	n       atomic.Int64
}

// NewCounting wraps p; latency 0 adds no wait.
func NewCounting(p storage.KVProvider, latency time.Duration) *Counting {
	return &Counting{KVProvider: p, latency: latency}
}

// Trips is the number of calls since the start or the last Reset.
func (c *Counting) Trips() int64 { return c.n.Load() }

// Reset starts the count again.
func (c *Counting) Reset() { c.n.Store(0) }

// For returns the namespace, counted.
func (c *Counting) For(module string) storage.KVStore {
	return counted{KVStore: c.KVProvider.For(module), c: c}
}

type counted struct {
	storage.KVStore
	c *Counting
}

var _ storage.KVStore = counted{}

func (s counted) trip(ctx context.Context) {
	s.c.n.Add(1)
	if s.c.latency > 0 {
		_ = pause.For(ctx, s.c.latency)
	}
}

func (s counted) Get(ctx context.Context, k string) ([]byte, error) {
	s.trip(ctx)
	return s.KVStore.Get(ctx, k)
}

func (s counted) GetJSON(ctx context.Context, k string, dst any) error {
	s.trip(ctx)
	return s.KVStore.GetJSON(ctx, k, dst)
}

func (s counted) Put(ctx context.Context, k string, v []byte) error {
	s.trip(ctx)
	return s.KVStore.Put(ctx, k, v)
}

func (s counted) PutJSON(ctx context.Context, k string, v any) error {
	s.trip(ctx)
	return s.KVStore.PutJSON(ctx, k, v)
}

func (s counted) Delete(ctx context.Context, k string) error {
	s.trip(ctx)
	return s.KVStore.Delete(ctx, k)
}

func (s counted) List(ctx context.Context, prefix string) ([]string, error) {
	s.trip(ctx)
	return s.KVStore.List(ctx, prefix)
}

func (s counted) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	s.trip(ctx)
	return s.KVStore.CompareAndSwap(ctx, k, old, v)
}
