package bolt

import (
	"fmt"
	"io"

	bbolt "go.etcd.io/bbolt"
)

// Copy is the whole file as one read transaction sees it: bbolt's hot
// backup. Writes go on while it is read (bbolt never overwrites a page a
// reader may see), and what it writes is the store at the transaction's
// start, every namespace at the same instant.
type Copy struct{ tx *bbolt.Tx }

// Size is how many bytes WriteTo writes.
func (c Copy) Size() int64 { return c.tx.Size() }

// WriteTo writes the file: a whole bbolt file that Open accepts.
func (c Copy) WriteTo(w io.Writer) (int64, error) {
	n, err := c.tx.WriteTo(w)
	if err != nil {
		return n, fmt.Errorf("bolt: copying the file: %w", err)
	}
	return n, nil
}

// Counts are the items of each namespace holding any, in the copy.
func (c Copy) Counts() map[string]int64 {
	out := map[string]int64{}
	_ = c.tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
		if n := b.Stats().KeyN; n > 0 {
			out[string(name)] = int64(n)
		}
		return nil
	})
	return out
}

// HotCopy runs fn with a Copy of the store, inside one read transaction
// that fn's return ends. The bot's own process takes it: the file's lock
// keeps every other process out while the bot runs.
func (p *Provider) HotCopy(fn func(Copy) error) error {
	return p.db.View(func(tx *bbolt.Tx) error { return fn(Copy{tx}) })
}

// Path is the store's file.
func (p *Provider) Path() string { return p.path }
