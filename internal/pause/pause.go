// Package pause waits for a while unless the context ends first: the one
// context-aware sleep of the retry loops (Bot API flood waits, the poller's
// back-off, CAS and batch-write retries).
package pause

import (
	"context"
	"time"
)

// For waits d, or returns ctx's error as soon as ctx ends.
func For(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
