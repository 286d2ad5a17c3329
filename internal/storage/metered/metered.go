// Package metered counts every store operation by backend, operation and
// outcome (ok, not_found, conflict, error) into the metric set, around any
// provider: the backends stay unaware of metrics.
package metered

import (
	"context"
	"errors"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Provider is a storage.KVProvider whose namespaces are counted.
type Provider struct {
	storage.KVProvider
	backend string
	m       *metrics.Metrics
}

var (
	_ storage.KVProvider     = (*Provider)(nil)
	_ storage.KVStore        = store{}
	_ storage.HealthReporter = (*Provider)(nil)
)

// Wrap counts p's operations as backend's; with m nil it returns p.
func Wrap(p storage.KVProvider, backend string, m *metrics.Metrics) storage.KVProvider {
	if m == nil {
		return p
	}
	return &Provider{KVProvider: p, backend: backend, m: m}
}

// Healthy passes on the report of the provider it counts.
func (p *Provider) Healthy(ctx context.Context) error { return storage.Healthy(ctx, p.KVProvider) }

// For returns the module's namespace, counted.
func (p *Provider) For(module string) storage.KVStore {
	return store{KVStore: p.KVProvider.For(module), p: p}
}

type store struct {
	storage.KVStore
	p *Provider
}

func (s store) count(op string, err error) {
	outcome := metrics.OK
	switch {
	case err == nil:
	case errors.Is(err, storage.ErrNotFound):
		outcome = metrics.NotFound
	case errors.Is(err, storage.ErrConflict):
		outcome = metrics.Conflict
	default:
		outcome = metrics.Error
	}
	s.p.m.Store(s.p.backend, op, outcome)
}

func (s store) Get(ctx context.Context, k string) ([]byte, error) {
	v, err := s.KVStore.Get(ctx, k)
	s.count("get", err)
	return v, err
}

func (s store) GetJSON(ctx context.Context, k string, dst any) error {
	err := s.KVStore.GetJSON(ctx, k, dst)
	s.count("get", err)
	return err
}

func (s store) Put(ctx context.Context, k string, v []byte) error {
	err := s.KVStore.Put(ctx, k, v)
	s.count("put", err)
	return err
}

func (s store) PutJSON(ctx context.Context, k string, v any) error {
	err := s.KVStore.PutJSON(ctx, k, v)
	s.count("put", err)
	return err
}

func (s store) Delete(ctx context.Context, k string) error {
	err := s.KVStore.Delete(ctx, k)
	s.count("delete", err)
	return err
}

func (s store) List(ctx context.Context, prefix string) ([]string, error) {
	keys, err := s.KVStore.List(ctx, prefix)
	s.count("list", err)
	return keys, err
}

func (s store) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	err := s.KVStore.CompareAndSwap(ctx, k, old, v)
	s.count("cas", err)
	return err
}

func (s store) CompareAndDelete(ctx context.Context, k string, old []byte) error {
	err := s.KVStore.CompareAndDelete(ctx, k, old)
	s.count("cad", err)
	return err
}
