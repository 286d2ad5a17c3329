// Package pause waits for a while unless the context ends first: the one
// context-aware sleep of the retry loops (Bot API flood waits, the poller's
// back-off, CAS and batch-write retries), and the one jittered back-off
// they wait for.
package pause

import (
	"context"
	"math/rand/v2"
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

// Backoff is the wait before retry number attempt (0: the first retry): a
// random moment from base/2 up to a ceiling that doubles from base with
// each attempt, up to most. The randomness spreads out retries that failed
// together (racing writers, replicas restarted at once) instead of
// repeating the collision in lock-step; the floor keeps a retry from
// coming back at once to what just failed.
func Backoff(attempt int, base, most time.Duration) time.Duration {
	if base <= 0 || most <= 0 {
		return 0
	}
	ceiling := min(base, most)
	for range max(attempt, 0) {
		if ceiling >= most/2 { // doubling would pass most (or overflow)
			ceiling = most
			break
		}
		ceiling *= 2
	}
	floor := min(base, ceiling) / 2
	if ceiling == floor {
		return floor
	}
	return floor + rand.N(ceiling-floor)
}
