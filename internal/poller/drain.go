package poller

import (
	"context"
	"math"
)

// Drain works the parked backlog until it is empty, without polling: a
// container switched to webhook mode finishes what a poller confirmed to
// Telegram before, so a mode switch loses nothing. Each chat's updates
// are handled in order; new updates come by the webhook meanwhile. It
// returns once the inbox is empty, or when ctx ends.
func (p *Poller) Drain(ctx context.Context) error {
	items, ok := p.listInbox(ctx)
	if !ok || len(items) == 0 {
		return nil
	}
	p.log.Info("working the updates a poller parked", "parked", len(items))
	s, end := p.session(ctx)
	defer end()
	s.start(s.q.recover(items, math.MaxInt64)) // Telegram has none of them: all are the inbox's
	s.wg.Wait()
	s.stopped("the parked updates are worked", "the drain stopped; updates are left for the next poller or drain")
	return nil
}
