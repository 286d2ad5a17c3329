package bolt

import (
	"fmt"
	"runtime/debug"

	bbolt "go.etcd.io/bbolt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// verify reads every item, then runs bbolt's own check, over a file whose
// pages checkFile has found sound. Should a fault happen all the same, it
// is a panic recovered here, except in the check's own goroutine.
func verify(db *bbolt.DB) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanicked, r)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return db.View(func(tx *bbolt.Tx) error {
		if err := readItems(tx); err != nil {
			return err
		}
		return check(tx)
	})
}

// readItems holds every item to what the provider writes, which bbolt
// cannot know: namespaces and keys by the contract's rules, values a
// timestamp and at most the contract's size, no nested bucket. A flipped
// bit that bbolt's key order misses may still break one of them.
func readItems(tx *bbolt.Tx) error {
	return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
		if b == nil {
			return fmt.Errorf("a plain key %q among the namespaces", name)
		}
		if err := storage.ValidateModule(string(name)); err != nil {
			return fmt.Errorf("namespace %q: %w", name, err)
		}
		return b.ForEach(func(k, v []byte) error {
			switch err := storage.ValidateKey(string(k)); {
			case err != nil:
				return fmt.Errorf("%s/%q: %w", name, k, err)
			case v == nil:
				return fmt.Errorf("%s/%q: a nested bucket", name, k)
			case len(v) < 8 || len(v)-8 > storage.MaxValueBytes:
				return fmt.Errorf("%s/%q: a stored value of %d bytes", name, k, len(v))
			}
			return nil
		})
	})
}

// check runs bbolt's check (reachability, double use, key order, the
// freelist) to its end: it reads the map until its channel closes.
func check(tx *bbolt.Tx) error {
	var first error
	n := 0
	for err := range tx.Check() {
		if first == nil {
			first = err
		}
		n++
	}
	switch {
	case n == 1:
		return fmt.Errorf("bbolt's check: %w", first)
	case n > 1:
		return fmt.Errorf("bbolt's check: %w (and %d more problems)", first, n-1)
	}
	return nil
}
