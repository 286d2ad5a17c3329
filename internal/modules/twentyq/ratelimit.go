package twentyq

import (
	"context"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// bucket is a user's question allowance, a token bucket refilled at the
// module's rate per minute.
type bucket struct {
	Tokens float64 `json:"tokens"`
	At     int64   `json:"at"` // unix nanos of the last question
}

func rateKey(user int64) string { return fmt.Sprintf("rate:%d", user) }

// allow takes a token from the user's bucket, kept in the store (CAS) so
// the limit holds across runtimes and Lambda instances.
func (m *module) allow(ctx context.Context, user int64) (bool, error) {
	allowed := false
	burst := m.rate
	err := storage.UpdateJSON(ctx, m.store, rateKey(user), func(b *bucket, found bool) (bool, error) {
		now := m.now()
		if found {
			elapsed := now.Sub(time.Unix(0, b.At)).Minutes()
			b.Tokens = min(burst, b.Tokens+elapsed*m.rate)
		} else {
			b.Tokens = burst
		}
		b.At = now.UnixNano()
		allowed = b.Tokens >= 1
		if allowed {
			b.Tokens--
		}
		return true, nil
	})
	return allowed, err
}
