package storagetest

import (
	"context"
	"sync"
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
	mu      sync.Mutex
	calls   []string
}

// NewCounting wraps p; latency 0 adds no wait.
func NewCounting(p storage.KVProvider, latency time.Duration) *Counting {
	return &Counting{KVProvider: p, latency: latency}
}

// Trips is the number of calls since the start or the last Reset.
func (c *Counting) Trips() int64 { return c.n.Load() }

// Reset starts the count again.
func (c *Counting) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n.Store(0)
	c.calls = nil
}

// Calls lists the calls since the start or the last Reset, in order, as
// "Op namespace/key": what a test prints to say where the trips go.
func (c *Counting) Calls() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// For returns the namespace, counted.
func (c *Counting) For(module string) storage.KVStore {
	return counted{KVStore: c.KVProvider.For(module), c: c, ns: module}
}

type counted struct {
	storage.KVStore
	c  *Counting
	ns string
}

var _ storage.KVStore = counted{}

func (s counted) trip(ctx context.Context, op, key string) {
	s.c.mu.Lock()
	s.c.calls = append(s.c.calls, op+" "+s.ns+"/"+key)
	s.c.mu.Unlock()
	s.c.n.Add(1)
	if s.c.latency > 0 {
		_ = pause.For(ctx, s.c.latency)
	}
}

func (s counted) Get(ctx context.Context, k string) ([]byte, error) {
	s.trip(ctx, "Get", k)
	return s.KVStore.Get(ctx, k)
}

func (s counted) GetJSON(ctx context.Context, k string, dst any) error {
	s.trip(ctx, "GetJSON", k)
	return s.KVStore.GetJSON(ctx, k, dst)
}

func (s counted) Put(ctx context.Context, k string, v []byte) error {
	s.trip(ctx, "Put", k)
	return s.KVStore.Put(ctx, k, v)
}

func (s counted) PutJSON(ctx context.Context, k string, v any) error {
	s.trip(ctx, "PutJSON", k)
	return s.KVStore.PutJSON(ctx, k, v)
}

func (s counted) Delete(ctx context.Context, k string) error {
	s.trip(ctx, "Delete", k)
	return s.KVStore.Delete(ctx, k)
}

func (s counted) List(ctx context.Context, prefix string) ([]string, error) {
	s.trip(ctx, "List", prefix)
	return s.KVStore.List(ctx, prefix)
}

func (s counted) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	s.trip(ctx, "CompareAndSwap", k)
	return s.KVStore.CompareAndSwap(ctx, k, old, v)
}

func (s counted) CompareAndDelete(ctx context.Context, k string, old []byte) error {
	s.trip(ctx, "CompareAndDelete", k)
	return s.KVStore.CompareAndDelete(ctx, k, old)
}
