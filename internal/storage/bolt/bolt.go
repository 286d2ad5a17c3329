// Package bolt is the embedded, persistent backend: one file on local disk
// (bbolt, pure Go, so CGO_ENABLED=0 and the distroless image keep working),
// for a self-hoster with no database server. Each namespace is a bucket;
// each value is stored after its updatedAt (8 bytes, big-endian). Every
// write is its own fsynced transaction, so an acknowledged write survives a
// crash, and the file is locked: a second process gets a clear error.
package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"os"
	"time"

	bbolt "go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Provider is a bbolt file.
type Provider struct {
	db   *bbolt.DB
	path string
	now  func() time.Time
}

// The provider is a full backend: the bot's store and a migration source
// and target.
var (
	_ storage.KVProvider = (*Provider)(nil)
	_ storage.Walker     = (*Provider)(nil)
	_ storage.Loader     = (*Provider)(nil)
	_ storage.Backend    = (*bucket)(nil)
)

// ErrLocked: another process has the file open.
var ErrLocked = errors.New("bolt: the file is in use by another process (one bot, or the migrator, at a time)")

// lockWait is how long Open waits for the file's lock.
const lockWait = 2 * time.Second

// Open opens (creating, with mode 0600) the file at path.
func Open(path string) (*Provider, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: lockWait})
	switch {
	case errors.Is(err, bberrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s", ErrLocked, path)
	case err != nil:
		return nil, fmt.Errorf("bolt: open %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil { // an older file may be wider open
		db.Close()
		return nil, fmt.Errorf("bolt: %s: %w", path, err)
	}
	return &Provider{db: db, path: path, now: time.Now}, nil
}

// For returns the namespace of module.
func (p *Provider) For(module string) storage.KVStore {
	return storage.Wrap(module, &bucket{p: p, name: []byte(module)})
}

// Close releases the file.
func (p *Provider) Close(context.Context) error { return p.db.Close() }

func encode(val []byte, updatedAt int64) []byte {
	out := make([]byte, 8+len(val))
	binary.BigEndian.PutUint64(out, uint64(updatedAt))
	copy(out[8:], val)
	return out
}

func decode(raw []byte) (val []byte, updatedAt int64, err error) {
	if len(raw) < 8 {
		return nil, 0, fmt.Errorf("bolt: a stored value of %d bytes has no timestamp", len(raw))
	}
	return bytes.Clone(raw[8:]), int64(binary.BigEndian.Uint64(raw)), nil
}

// Namespaces lists the buckets holding at least one item, sorted (bbolt
// keeps buckets in byte order).
func (p *Provider) Namespaces(context.Context) ([]string, error) {
	var names []string
	err := p.db.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			if k, _ := b.Cursor().First(); k != nil {
				names = append(names, string(name))
			}
			return nil
		})
	})
	return names, err
}

// Items streams one namespace in key order, in pages, so no transaction is
// held while the caller works.
func (p *Provider) Items(ctx context.Context, name string) iter.Seq2[storage.Item, error] {
	return func(yield func(storage.Item, error) bool) {
		var after []byte
		for {
			if err := ctx.Err(); err != nil {
				yield(storage.Item{}, err)
				return
			}
			page, err := p.page(name, after, 256)
			if err != nil {
				yield(storage.Item{}, err)
				return
			}
			for _, it := range page {
				if !yield(it, nil) {
					return
				}
			}
			if len(page) < 256 {
				return
			}
			after = []byte(page[len(page)-1].Key)
		}
	}
}

// page reads up to n items of a namespace after key after (nil: from the start).
func (p *Provider) page(name string, after []byte, n int) ([]storage.Item, error) {
	var out []storage.Item
	err := p.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte(name))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		k, v := c.First()
		if after != nil {
			if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
				k, v = c.Next()
			}
		}
		for ; k != nil && len(out) < n; k, v = c.Next() {
			val, at, err := decode(v)
			if err != nil {
				return fmt.Errorf("%s/%q: %w", name, k, err)
			}
			out = append(out, storage.Item{Namespace: name, Key: string(k), Value: val, UpdatedAt: at})
		}
		return nil
	})
	return out, err
}

// Walk streams every item of every namespace.
func (p *Provider) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	return storage.WalkItems(ctx, p, fn)
}

// Load writes items as they are, by o.Decide, in one transaction per call.
func (p *Provider) Load(_ context.Context, items []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	var res storage.LoadResult
	err := p.db.Update(func(tx *bbolt.Tx) error {
		res = storage.LoadResult{}
		for _, it := range items {
			b, err := tx.CreateBucketIfNotExists([]byte(it.Namespace))
			if err != nil {
				return err
			}
			var cur storage.Item
			raw := b.Get([]byte(it.Key))
			if raw != nil {
				if cur.Value, cur.UpdatedAt, err = decode(raw); err != nil {
					return err
				}
			}
			if write, why := o.Decide(it, cur, raw != nil); !write {
				res = res.Add(*why)
				continue
			}
			if err := b.Put([]byte(it.Key), encode(it.Value, it.UpdatedAt)); err != nil {
				return err
			}
			res.Written++
		}
		return nil
	})
	return res, err
}

// bucket is one namespace.
type bucket struct {
	p    *Provider
	name []byte
}

func (b *bucket) Get(_ context.Context, key string) ([]byte, error) {
	var val []byte
	err := b.p.db.View(func(tx *bbolt.Tx) error {
		bk := tx.Bucket(b.name)
		if bk == nil {
			return storage.ErrNotFound
		}
		raw := bk.Get([]byte(key))
		if raw == nil {
			return storage.ErrNotFound
		}
		var err error
		val, _, err = decode(raw)
		return err
	})
	return val, err
}

func (b *bucket) Put(_ context.Context, key string, val []byte) error {
	return b.p.db.Update(func(tx *bbolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(b.name)
		if err != nil {
			return err
		}
		return bk.Put([]byte(key), encode(val, b.p.now().UnixNano()))
	})
}

func (b *bucket) Delete(_ context.Context, key string) error {
	return b.p.db.Update(func(tx *bbolt.Tx) error {
		if bk := tx.Bucket(b.name); bk != nil {
			return bk.Delete([]byte(key))
		}
		return nil
	})
}

func (b *bucket) List(_ context.Context, prefix string) ([]string, error) {
	keys := []string{}
	err := b.p.db.View(func(tx *bbolt.Tx) error {
		bk := tx.Bucket(b.name)
		if bk == nil {
			return nil
		}
		c := bk.Cursor()
		for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, _ = c.Next() {
			keys = append(keys, string(k))
		}
		return nil
	})
	return keys, err
}

// CompareAndSwap is atomic: bbolt runs one write transaction at a time.
func (b *bucket) CompareAndSwap(_ context.Context, key string, expected, val []byte) error {
	return b.p.db.Update(func(tx *bbolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(b.name)
		if err != nil {
			return err
		}
		raw := bk.Get([]byte(key))
		switch {
		case expected == nil && raw != nil:
			return storage.ErrConflict
		case expected != nil && raw == nil:
			return storage.ErrConflict
		case expected != nil:
			cur, _, err := decode(raw)
			if err != nil {
				return err
			}
			if !bytes.Equal(cur, expected) {
				return storage.ErrConflict
			}
		}
		return bk.Put([]byte(key), encode(val, b.p.now().UnixNano()))
	})
}
