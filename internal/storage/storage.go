// Package storage is the key-value contract every part of miti99bot stores its
// state through, and the validation that keeps the contract identical on every
// backend (memory, DynamoDB, MongoDB).
//
// Backends implement the small [Backend] interface per namespace; [Wrap] turns a
// Backend into a [KVStore] that validates keys, values and prefixes, adds the JSON
// helpers and wraps every error with its operation and key. Because validation
// lives here and not in each backend, a key accepted by one backend is accepted by
// all of them, which is what lets data move between them unchanged.
package storage

import (
	"bytes"
	"context"
	"iter"
)

// KVStore is one module's isolated namespace.
type KVStore interface {
	// Get returns the stored bytes, or ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)
	// GetJSON decodes the stored value into dst, or returns ErrNotFound.
	GetJSON(ctx context.Context, key string, dst any) error
	// Put stores val under key, replacing any previous value.
	Put(ctx context.Context, key string, val []byte) error
	// PutJSON stores the JSON encoding of v.
	PutJSON(ctx context.Context, key string, v any) error
	// Delete removes key; deleting an absent key is not an error.
	Delete(ctx context.Context, key string) error
	// List returns the keys starting with prefix, byte-wise sorted; "" lists
	// every key of the namespace. An empty result is a non-nil empty slice.
	List(ctx context.Context, prefix string) ([]string, error)
	// CompareAndSwap stores val only if the current value equals expected;
	// expected == nil means the key must be absent. A mismatch, or losing a
	// race, returns ErrConflict and writes nothing.
	CompareAndSwap(ctx context.Context, key string, expected, val []byte) error
	// CompareAndDelete deletes key only if its current value equals
	// expected byte for byte, so that of two callers deciding one thing
	// (cancel or fire) exactly one wins. An absent key, another value, or
	// losing a race returns ErrConflict and deletes nothing. expected must
	// be non-nil ([]byte{} matches an empty value): nil is ErrInvalidArgument.
	CompareAndDelete(ctx context.Context, key string, expected []byte) error
}

// KVProvider hands out one isolated KVStore per module and owns the connection.
type KVProvider interface {
	// For returns the namespace of module. An invalid module name yields a
	// store whose every call fails with ErrInvalidModule (fail closed).
	For(module string) KVStore
	// Namespaces lists the namespaces that hold at least one item, sorted.
	Namespaces(ctx context.Context) ([]string, error)
	// Items streams every item of one namespace in key order with its raw
	// value and update time, without loading the namespace into memory.
	// Iteration stops at the first error, which is yielded with a zero Item.
	Items(ctx context.Context, namespace string) iter.Seq2[Item, error]
	// Close releases the provider's connections.
	Close(ctx context.Context) error
}

// Item is one stored entry as tools (the migrator) see it.
type Item struct {
	Namespace string
	Key       string
	Value     []byte
	// UpdatedAt is the time of the last write in Unix nanoseconds.
	UpdatedAt int64
}

// Backend is the primitive set a provider implements for one namespace. Wrap
// validates every argument before a Backend sees it, so implementations only
// translate to their server and map its errors to ErrNotFound and ErrConflict.
type Backend interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, val []byte) error
	Delete(ctx context.Context, key string) error
	// List returns the matching keys sorted; nil is fine, Wrap normalises it.
	List(ctx context.Context, prefix string) ([]string, error)
	CompareAndSwap(ctx context.Context, key string, expected, val []byte) error
	// CompareAndDelete gets a non-nil expected; it returns ErrConflict when
	// the key is absent or holds anything else, atomically with the delete.
	CompareAndDelete(ctx context.Context, key string, expected []byte) error
}

// Raw is an item as a backend holds it, before the key rules: what the
// migrator reads, so that data no backend could accept is reported, never
// dropped. Problem is set when the item cannot be read as a storage.Item.
type Raw struct {
	Item
	Problem string
}

// Why says why the item cannot be written to a store or an archive: it
// could not be read, or it breaks the contract's rules ("" if it can).
func (r Raw) Why() string {
	if r.Problem != "" {
		return r.Problem
	}
	if err := r.Check(); err != nil {
		return err.Error()
	}
	return ""
}

// Walker is a provider that can stream everything it holds, valid or not,
// in any order, with constant memory (a DynamoDB Scan, a MongoDB cursor).
type Walker interface {
	Walk(ctx context.Context, fn func(Raw) error) error
}

// Loader is a provider that can write items as they are, keeping their
// UpdatedAt, in batches. It reports what it did with each, so a repeated
// load says that it changed nothing.
type Loader interface {
	Load(ctx context.Context, items []Item, o LoadOptions) (LoadResult, error)
}

// LoadOptions say how a Load treats what the target already holds.
type LoadOptions struct {
	// Overwrite replaces every target item that differs. Without it a
	// target item newer than the source's (UpdatedAt) is kept: rerunning a
	// copy never rolls back what was written on the target since.
	Overwrite bool
	// Since (unix nanos), when set, is when an earlier copy from the same
	// source started: a source item no newer than that which the target
	// lacks was deleted on the target since, and is not brought back.
	Since int64
}

// LoadResult counts what a Load did.
type LoadResult struct {
	Written, Unchanged int
	KeptNewer          int // target items newer than the source's, kept
	Deleted            int // deleted on the target since the earlier copy: not brought back
}

// Add sums two results.
func (r LoadResult) Add(o LoadResult) LoadResult {
	return LoadResult{r.Written + o.Written, r.Unchanged + o.Unchanged, r.KeptNewer + o.KeptNewer, r.Deleted + o.Deleted}
}

// Decide is the one rule of a Load for one item: given what the target
// holds (found false when nothing), write it, or count why not.
func (o LoadOptions) Decide(it Item, cur Item, found bool) (write bool, why *LoadResult) {
	switch {
	case found && bytes.Equal(cur.Value, it.Value) && cur.UpdatedAt == it.UpdatedAt:
		return false, &LoadResult{Unchanged: 1}
	case found && !o.Overwrite && cur.UpdatedAt > it.UpdatedAt:
		return false, &LoadResult{KeptNewer: 1}
	case !found && !o.Overwrite && o.Since > 0 && it.UpdatedAt <= o.Since:
		return false, &LoadResult{Deleted: 1}
	}
	return true, nil
}

// Check applies the contract's rules to an item, for tools that move data.
func (it Item) Check() error {
	if err := ValidateModule(it.Namespace); err != nil {
		return err
	}
	if err := ValidateKey(it.Key); err != nil {
		return err
	}
	return ValidateValue(it.Value)
}

// WalkAll calls fn with every item of p: through its own Walk where it has
// one (which also yields the items that break the contract), else
// WalkItems.
func WalkAll(ctx context.Context, p KVProvider, fn func(Raw) error) error {
	if w, ok := p.(Walker); ok {
		return w.Walk(ctx, fn)
	}
	return WalkItems(ctx, p, fn)
}

// WalkItems is Walk for a provider whose every item is valid by
// construction (it validated on the way in): each namespace's Items, in
// order, as Raw items.
func WalkItems(ctx context.Context, p KVProvider, fn func(Raw) error) error {
	names, err := p.Namespaces(ctx)
	if err != nil {
		return err
	}
	for _, ns := range names {
		for it, err := range p.Items(ctx, ns) {
			if err != nil {
				return err
			}
			if err := fn(Raw{Item: it}); err != nil {
				return err
			}
		}
	}
	return nil
}
