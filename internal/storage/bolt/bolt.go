// Package bolt is the embedded, persistent backend: one file on local disk
// (bbolt, pure Go, so CGO_ENABLED=0 and the distroless image keep working),
// for a self-hoster with no database server. Each namespace is a bucket;
// each value is stored after its updatedAt (8 bytes, big-endian). Every
// write is its own fsynced transaction, so an acknowledged write survives a
// crash, and the file is locked: a second process gets a clear error. Open
// checks the file first: a damaged one is refused (ErrDamaged), not served.
package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Provider is a bbolt file.
type Provider struct {
	db   *bbolt.DB
	path string
	now  func() time.Time
	// failed is the last write's failure, nil once a write succeeds.
	failed atomic.Pointer[writeFailure]
}

// The provider is a full backend: the bot's store and a migration source
// and target.
var (
	_ storage.KVProvider     = (*Provider)(nil)
	_ storage.Walker         = (*Provider)(nil)
	_ storage.Loader         = (*Provider)(nil)
	_ storage.HealthReporter = (*Provider)(nil)
	_ storage.Backend        = (*bucket)(nil)
)

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
	return b.p.update(func(tx *bbolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(b.name)
		if err != nil {
			return err
		}
		return bk.Put([]byte(key), encode(val, b.p.now().UnixNano()))
	})
}

func (b *bucket) Delete(_ context.Context, key string) error {
	return b.p.update(func(tx *bbolt.Tx) error {
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
	return b.p.update(func(tx *bbolt.Tx) error {
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

// CompareAndDelete reads and deletes in one write transaction, so no other
// write can come between the comparison and the delete.
func (b *bucket) CompareAndDelete(_ context.Context, key string, expected []byte) error {
	return b.p.update(func(tx *bbolt.Tx) error {
		bk := tx.Bucket(b.name)
		if bk == nil {
			return storage.ErrConflict
		}
		raw := bk.Get([]byte(key))
		if raw == nil {
			return storage.ErrConflict
		}
		cur, _, err := decode(raw)
		if err != nil {
			return err
		}
		if !bytes.Equal(cur, expected) {
			return storage.ErrConflict
		}
		return bk.Delete([]byte(key))
	})
}
