package sim

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// A write that failed without an answer (its deadline passed while the
// server worked on it) may land after the bot gave up on it, even after
// the store was read to learn what it did: a server finishes a call its
// client abandoned. Until the bot's next write of the key decides it, the
// store may show the value before it or the one it wrote; both are the
// bot's own.

// alt is one outcome a store may show for a key: a value, or none.
type alt struct {
	v      []byte
	absent bool
}

// shows reports whether one of alts is v (present) or no value (!present).
func shows(alts []alt, v []byte, present bool) bool {
	for _, a := range alts {
		if a.absent != present && (!present || bytes.Equal(a.v, v)) {
			return true
		}
	}
	return false
}

// unsureReadBudget bounds the read that learns what a failed write did.
const unsureReadBudget = 10 * time.Second

// unsure learns from the store what a write that failed did (tried: what
// it wrote), and keeps the key open until the next write decides it. The
// read has its own deadline: the call's may be what ran out.
func (ks *keyspace) unsure(ctx context.Context, s storage.KVStore, k nsKey, began int64, tried alt, err error) {
	if err == nil || errors.Is(err, storage.ErrConflict) {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unsureReadBudget)
	defer cancel()
	v, gerr := s.Get(rctx, k.key)
	switch {
	case gerr == nil:
		ks.put(k, v, began)
	case errors.Is(gerr, storage.ErrNotFound):
		ks.remove(k, began)
	}
	ks.mu.Lock()
	defer ks.mu.Unlock()
	now, ok := ks.items[k]
	if landed := shows([]alt{tried}, now, ok); !landed {
		ks.open[k] = []alt{{v: now, absent: !ok}, tried}
	}
}
