package storagetest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// ErrUnheard is what a write armed by Unheard.Arm answers: a timeout, which
// says nothing of whether the write landed.
var ErrUnheard = fmt.Errorf("storagetest: the write timed out: %w", context.DeadlineExceeded)

// Unheard wraps a provider so that one chosen compare-and-swap or
// compare-and-delete fails: it lands (or not) and its caller hears
// ErrUnheard, as with a store call that timed out after (or before)
// writing. Only these conditional writes are armed: every read-modify-write
// (storage.Update) ends in a swap, and a decided-once delete (a timer's
// cancel or fire) is a compare-and-delete.
type Unheard struct {
	storage.KVProvider

	mu      sync.Mutex
	ns, key string // the armed namespace and key prefix; "" ns: none
	land    bool
	fired   int
}

// NewUnheard wraps p, disarmed.
func NewUnheard(p storage.KVProvider) *Unheard { return &Unheard{KVProvider: p} }

// Arm makes the next swap or conditional delete in namespace ns of a key
// starting with prefix fail with ErrUnheard, after it landed when land is
// true.
func (u *Unheard) Arm(ns, prefix string, land bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.ns, u.key, u.land = ns, prefix, land
}

// Fired is how many armed calls failed so far.
func (u *Unheard) Fired() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.fired
}

// For returns namespace ns behind the fault.
func (u *Unheard) For(ns string) storage.KVStore {
	return &unheardNS{KVStore: u.KVProvider.For(ns), u: u, ns: ns}
}

// take reports whether the conditional write of key in ns is the armed one (and
// disarms), and whether it lands.
func (u *Unheard) take(ns, key string) (hit, land bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.ns == "" || ns != u.ns || !strings.HasPrefix(key, u.key) {
		return false, false
	}
	u.ns = ""
	u.fired++
	return true, u.land
}

type unheardNS struct {
	storage.KVStore
	u  *Unheard
	ns string
}

func (s *unheardNS) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	hit, land := s.u.take(s.ns, key)
	if !hit {
		return s.KVStore.CompareAndSwap(ctx, key, expected, val)
	}
	if land {
		if err := s.KVStore.CompareAndSwap(ctx, key, expected, val); err != nil {
			return err
		}
	}
	return ErrUnheard
}

func (s *unheardNS) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	hit, land := s.u.take(s.ns, key)
	if !hit {
		return s.KVStore.CompareAndDelete(ctx, key, expected)
	}
	if land {
		if err := s.KVStore.CompareAndDelete(ctx, key, expected); err != nil {
			return err
		}
	}
	return ErrUnheard
}
