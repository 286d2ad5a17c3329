package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Claim is a piece of work several processes may try at once (a day's push
// to a chat), taken by one of them: a record at a key, swapped with
// compare-and-swap from free to running by the taker, then to done or back
// to failed (free again). A running record older than its staleness
// belongs to a runner that died, and is free like a failed one.
type Claim struct {
	store storage.KVStore
	key   string
	held  []byte // the record as the taker wrote it
}

// claimRecord is a claim's stored value. The names read include the push
// markers' older ones (sending, sent, refused).
type claimRecord struct {
	State string `json:"state"`
	At    int64  `json:"at"` // unix nanos of the last change
}

func (r claimRecord) encode() []byte {
	b, _ := json.Marshal(r) // two plain fields: cannot fail
	return b
}

// claimRead reads a record: a record that cannot be read (an empty one
// included) is taken as finished, so work is never risked twice on a
// record nobody understands. The states are internal/claim's, the rule the
// engine's update and cron slot claims follow too.
func claimRead(v []byte) (r claimRecord, finished bool) {
	if len(v) == 0 || json.Unmarshal(v, &r) != nil {
		return r, true
	}
	return r, claim.Parse(r.State) == claim.Done
}

func claimDone(v []byte) bool {
	_, finished := claimRead(v)
	return finished
}

// claimFree reports whether the record v (nil: none) may be taken at now.
func claimFree(v []byte, now time.Time, stale time.Duration) bool {
	if v == nil {
		return true
	}
	r, finished := claimRead(v)
	return !finished && claim.Judge(claim.Parse(r.State), r.At, now, stale) == claim.Take
}

// ClaimFinished reports whether a claim's stored record says its work is
// finished (for a module moving or reading its claims).
func ClaimFinished(record []byte) bool { return claimDone(record) }

// TakeClaim takes the work at key for the caller, unless it is finished or
// held by a live runner (a running claim younger than stale); nil then:
// the work is not the caller's to do. A record with bytes that do not
// decode is not taken either, and is a storage.DamagedError: the work is
// neither risked twice nor dropped unsaid (the engine reports the item).
func TakeClaim(ctx context.Context, s storage.KVStore, key string, now time.Time, stale time.Duration) (*Claim, error) {
	mine := claimRecord{State: "running", At: now.UnixNano()}.encode()
	var won bool
	err := storage.Update(ctx, s, key, func(cur []byte) ([]byte, error) {
		if len(cur) > 0 {
			if err := json.Unmarshal(cur, new(claimRecord)); err != nil {
				won = false
				return nil, storage.Damaged("", key, cur, fmt.Errorf("decode claim: %w", err))
			}
		}
		won = claimFree(cur, now, stale) // this may run again after a lost race
		if !won {
			return nil, nil
		}
		return mine, nil
	})
	if err != nil || !won {
		return nil, err
	}
	return &Claim{store: s, key: key, held: mine}, nil
}

// Finish marks the work done for good: no one takes it again.
func (c *Claim) Finish(ctx context.Context, now time.Time) error {
	return c.end(ctx, "done", now)
}

// Release gives the work back unfinished, free for the next taker. It is
// written even when ctx is cancelled: the runner is giving up.
func (c *Claim) Release(ctx context.Context, now time.Time) error {
	return c.end(context.WithoutCancel(ctx), "failed", now)
}

// FinishAt marks the work done at key instead (the work moved there: a
// chat became a supergroup), unless a record is there already, and drops
// the claim's own record.
func (c *Claim) FinishAt(ctx context.Context, key string, now time.Time) error {
	err := c.store.CompareAndSwap(ctx, key, nil, claimRecord{State: "done", At: now.UnixNano()}.encode())
	if err != nil && !errors.Is(err, storage.ErrConflict) {
		return err
	}
	return c.store.Delete(ctx, c.key)
}

func (c *Claim) end(ctx context.Context, state string, now time.Time) error {
	if err := c.store.CompareAndSwap(ctx, c.key, c.held, claimRecord{State: state, At: now.UnixNano()}.encode()); err != nil {
		return fmt.Errorf("claim %s: %w", c.key, err)
	}
	return nil
}
