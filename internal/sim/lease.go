package sim

import (
	"context"
	"time"

	"github.com/miti99bot/miti99bot/internal/container"
	"github.com/miti99bot/miti99bot/internal/lease"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// pollLease is p's polling lease. Its owner is the container's hostname,
// which a restarted container keeps: a new poller takes its predecessor's
// lease, and so its runs, at once. Renewals follow the wall clock, which
// the life does not have: the lease lasts as long as any life instead, and
// its renewal waits until the poller stops. Its process is named by p's
// name, as a replay of the life names it.
func (l *life) pollLease(p *proc, store storage.KVProvider) *lease.Lease {
	var ls *lease.Lease
	wait := func(ctx context.Context, _ time.Duration) error {
		if !ls.Holding() {
			return ctx.Err() // the store was down: try again at once
		}
		select {
		case <-ctx.Done():
		case <-p.l.end:
		}
		return context.Canceled
	}
	ls = lease.New(store.For(storage.CoreNamespace), container.PollLeaseKey, "container", pollLeaseTTL,
		lease.WithClock(l.clk.Now), lease.WithWait(wait), lease.WithBoot(p.name))
	return ls
}

// pollLeaseTTL outlasts any life.
const pollLeaseTTL = 100 * 365 * 24 * time.Hour
