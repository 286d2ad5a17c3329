package timer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// leaseKey holds the tick running now: one tick runs at a time across
// every process (Lambda environments, replicas), so the sends of due
// timers are paced by one Telegram client (30 a second) instead of by
// each at once. It is a claim (internal/claim's rule): running since At,
// held by By, a lapsed one (a tick whose process died) taken over.
const leaseKey = "timer:ticking"

// leaseFor is how long a tick holds the lease at most: its budget ends
// within a minute and its last callbacks within app.TimerRunTimeout
// after; a tick whose process died frees it then.
const leaseFor = app.TimerStale

// tickLease is the lease as stored.
type tickLease struct {
	State string `json:"state"`
	At    int64  `json:"at"` // unix nanos of the take
	By    string `json:"by"` // the taker, so that only it frees it
}

// takeLease takes the tick lease when it is free or lapsed: the bytes
// that hold it, or nil when another tick holds it. A record that does not
// read holds nothing.
func (e *Engine) takeLease(ctx context.Context, now time.Time) ([]byte, error) {
	cur, err := e.store.Get(ctx, leaseKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		cur = nil
	case err != nil:
		return nil, fmt.Errorf("timers: read the tick lease: %w", err)
	default:
		var l tickLease
		if json.Unmarshal(cur, &l) == nil && claim.Judge(claim.Parse(l.State), l.At, now, leaseFor) == claim.Busy {
			return nil, nil
		}
	}
	mine, _ := json.Marshal(tickLease{State: "running", At: now.UnixNano(), By: strconv.FormatInt(e.drawID(), 36)}) // plain fields
	if err := e.store.CompareAndSwap(ctx, leaseKey, cur, mine); errors.Is(err, storage.ErrConflict) {
		return nil, nil // another tick took it first
	} else if err != nil {
		return nil, fmt.Errorf("timers: take the tick lease: %w", err)
	}
	return mine, nil
}

// dropLease frees the lease for the next tick, if it is still this one's.
func (e *Engine) dropLease(ctx context.Context, mine []byte) {
	if err := e.store.CompareAndDelete(context.WithoutCancel(ctx), leaseKey, mine); err != nil && !errors.Is(err, storage.ErrConflict) {
		e.log.Warn("timers: the tick lease not freed: the next tick waits for it to lapse", "err", err)
	}
}
