// Package memory is the in-process storage backend: the default for local runs
// and the reference the other backends are compared with. Nothing survives the
// process.
package memory

import (
	"bytes"
	"context"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Provider keeps every namespace in maps guarded by one lock. Values are copied
// in and out, so callers can never alias stored bytes.
type Provider struct {
	mu  sync.RWMutex
	ns  map[string]map[string]entry
	now func() time.Time
}

type entry struct {
	value     []byte
	updatedAt int64
}

// The memory provider is a full backend: the core's store and a migration
// source and target.
var (
	_ storage.KVProvider = (*Provider)(nil)
	_ storage.Walker     = (*Provider)(nil)
	_ storage.Loader     = (*Provider)(nil)
	_ storage.Backend    = (*namespace)(nil)
)

// New returns an empty provider.
func New() *Provider {
	return &Provider{ns: make(map[string]map[string]entry), now: time.Now}
}

// For returns the namespace of module.
func (p *Provider) For(module string) storage.KVStore {
	return storage.Wrap(module, &namespace{p: p, name: module})
}

// Namespaces lists the namespaces holding at least one item, sorted.
func (p *Provider) Namespaces(ctx context.Context) ([]string, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	names := make([]string, 0, len(p.ns))
	for name, items := range p.ns {
		if len(items) > 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// Items streams one namespace in key order. It snapshots the key list, then
// reads each item under the lock, so writers are never blocked for long.
func (p *Provider) Items(ctx context.Context, name string) iter.Seq2[storage.Item, error] {
	return func(yield func(storage.Item, error) bool) {
		p.mu.RLock()
		keys := sortedKeys(p.ns[name], "")
		p.mu.RUnlock()
		for _, k := range keys {
			if err := ctx.Err(); err != nil {
				yield(storage.Item{}, err)
				return
			}
			p.mu.RLock()
			e, ok := p.ns[name][k]
			p.mu.RUnlock()
			if !ok {
				continue // deleted since the snapshot
			}
			it := storage.Item{Namespace: name, Key: k, Value: bytes.Clone(e.value), UpdatedAt: e.updatedAt}
			if !yield(it, nil) {
				return
			}
		}
	}
}

// Close is a no-op; the data goes with the process.
func (p *Provider) Close(context.Context) error { return nil }

type namespace struct {
	p    *Provider
	name string
}

func (n *namespace) Get(_ context.Context, key string) ([]byte, error) {
	n.p.mu.RLock()
	defer n.p.mu.RUnlock()
	e, ok := n.p.ns[n.name][key]
	if !ok {
		return nil, storage.ErrNotFound
	}
	return clone(e.value), nil
}

func (n *namespace) Put(_ context.Context, key string, val []byte) error {
	n.p.mu.Lock()
	defer n.p.mu.Unlock()
	n.set(key, val)
	return nil
}

// set stores a copy of val; the caller holds the write lock.
func (n *namespace) set(key string, val []byte) {
	items := n.p.ns[n.name]
	if items == nil {
		items = make(map[string]entry)
		n.p.ns[n.name] = items
	}
	items[key] = entry{value: clone(val), updatedAt: n.p.now().UnixNano()}
}

func (n *namespace) Delete(_ context.Context, key string) error {
	n.p.mu.Lock()
	defer n.p.mu.Unlock()
	delete(n.p.ns[n.name], key)
	return nil
}

func (n *namespace) List(_ context.Context, prefix string) ([]string, error) {
	n.p.mu.RLock()
	defer n.p.mu.RUnlock()
	return sortedKeys(n.p.ns[n.name], prefix), nil
}

func (n *namespace) CompareAndSwap(_ context.Context, key string, expected, val []byte) error {
	n.p.mu.Lock()
	defer n.p.mu.Unlock()
	e, ok := n.p.ns[n.name][key]
	switch {
	case expected == nil && ok:
		return storage.ErrConflict
	case expected != nil && (!ok || !bytes.Equal(e.value, expected)):
		return storage.ErrConflict
	}
	n.set(key, val)
	return nil
}

func (n *namespace) CompareAndDelete(_ context.Context, key string, expected []byte) error {
	n.p.mu.Lock()
	defer n.p.mu.Unlock()
	e, ok := n.p.ns[n.name][key]
	if !ok || !bytes.Equal(e.value, expected) {
		return storage.ErrConflict
	}
	delete(n.p.ns[n.name], key)
	return nil
}

func sortedKeys(items map[string]entry, prefix string) []string {
	keys := make([]string, 0, len(items))
	for k := range items {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // Go compares strings byte-wise, as the contract requires
	return keys
}

// clone copies b, keeping an empty value non-nil (present, not absent).
func clone(b []byte) []byte {
	return append([]byte{}, b...)
}

// Walk streams every item of every namespace.
func (p *Provider) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	return storage.WalkItems(ctx, p, fn)
}

// Load writes items as they are, UpdatedAt included.
func (p *Provider) Load(_ context.Context, items []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var res storage.LoadResult
	for _, it := range items {
		ns := p.ns[it.Namespace]
		if ns == nil {
			ns = make(map[string]entry)
			p.ns[it.Namespace] = ns
		}
		cur, found := ns[it.Key]
		if write, why := o.Decide(it, storage.Item{Value: cur.value, UpdatedAt: cur.updatedAt}, found); !write {
			res = res.Add(*why)
			continue
		}
		ns[it.Key] = entry{value: clone(it.Value), updatedAt: it.UpdatedAt}
		res.Written++
	}
	return res, nil
}
