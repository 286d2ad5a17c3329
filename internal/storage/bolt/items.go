package bolt

import (
	"bytes"
	"context"
	"fmt"
	"iter"

	bbolt "go.etcd.io/bbolt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// The provider as the migrator sees it: every namespace and item, read in
// pages, and loaded as they are.

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
	err := p.update(func(tx *bbolt.Tx) error {
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
