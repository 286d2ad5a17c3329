package bolt

import (
	"context"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// writeFailure is a write that failed in bbolt itself (starting or
// committing the transaction: growing the file, writing, syncing), not by
// the store's rules (a conflict, a bad value).
type writeFailure struct {
	err error
	at  time.Time
}

// update is db.Update, remembering whether bbolt could write: a full disk
// fails every commit while every read still answers, so a read probe
// alone would call the store healthy.
func (p *Provider) update(fn func(*bbolt.Tx) error) error {
	var fnErr error
	err := p.db.Update(func(tx *bbolt.Tx) error {
		fnErr = fn(tx)
		return fnErr
	})
	switch {
	case fnErr != nil: // the rules said no; nothing was asked of the disk
	case err != nil:
		p.failed.Store(&writeFailure{err: err, at: p.now()})
	case p.failed.Load() != nil:
		p.failed.Store(nil)
	}
	return err
}

// Healthy is nil unless the last write failed in bbolt (say, "no space
// left on device"); the next write that succeeds clears it.
func (p *Provider) Healthy(context.Context) error {
	if f := p.failed.Load(); f != nil {
		return fmt.Errorf("bolt: the last write (%s) failed: %w", f.at.UTC().Format(time.RFC3339), f.err)
	}
	return nil
}
