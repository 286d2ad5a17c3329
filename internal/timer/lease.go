package timer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// leaseKey holds the tick running now, as the unix nanos until which it
// is held and who holds it: one tick runs at a time across every process
// (Lambda environments, replicas), so the sends of due timers are paced by
// one Telegram client (30 a second) instead of by each at once.
const leaseKey = "timer:ticking"

// leaseFor is how long a tick holds the lease at most: its budget ends
// within a minute and its last callbacks within app.TimerRunTimeout
// after; a tick whose process died frees it then.
const leaseFor = app.TimerStale

// takeLease takes the tick lease when it is free or lapsed: the bytes
// that hold it, or nil when another tick holds it.
func (e *Engine) takeLease(ctx context.Context, now time.Time) ([]byte, error) {
	cur, err := e.store.Get(ctx, leaseKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		cur = nil
	case err != nil:
		return nil, fmt.Errorf("timers: read the tick lease: %w", err)
	default:
		if until, _, ok := parseLease(cur); ok && now.UnixNano() < until {
			return nil, nil
		}
	}
	mine := []byte(strconv.FormatInt(now.Add(leaseFor).UnixNano(), 10) + ":" + strconv.FormatInt(e.newID(), 36))
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

func parseLease(v []byte) (until int64, by string, ok bool) {
	s := string(v)
	for i := range len(s) {
		if s[i] == ':' {
			n, err := strconv.ParseInt(s[:i], 10, 64)
			return n, s[i+1:], err == nil
		}
	}
	return 0, "", false
}
