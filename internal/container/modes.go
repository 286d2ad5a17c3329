package container

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/lease"
	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// Polling and webhook modes differ on purpose: polling is one consumer per
// bot (Telegram answers a second one 409), so replicas take turns through a
// lease in the store; a webhook is answered by whichever replica the load
// balancer picks, so every replica serves and none polls.

// pollLease is how long a poller holds the role without renewing it; a
// replica that died hands over after this.
const pollLease = 30 * time.Second

// poll runs the poller while this replica holds the polling lease. A
// replica that waits is healthy (it stands by); the one that polls answers
// for its poller.
//
// The lease's owner is the hostname, which a container keeps across its
// restarts: a replica killed and restarted polls again at once. Its claims
// name this process (core.RunAs), and while it holds the lease every other
// process's run in flight is known to have stopped (a holder that loses the
// lease, or cannot renew it, cuts its handlers at once), so it is taken
// over at once too. Save one case: a second live process with the same
// hostname takes the lease as a restart would; the older one stands down
// at its next renewal (lease.ErrClash), and until then both run what it
// had in flight.
func poll(ctx context.Context, b *wiring.Bot) {
	p, l := pollerOf(b)
	var polling atomic.Bool
	b.AddHealth(func(ctx context.Context) error { // the container answers nobody if polling is dead
		if !polling.Load() {
			return nil
		}
		return p.Health(ctx)
	})
	_ = l.Hold(ctx, func(held context.Context) {
		polling.Store(true)
		defer polling.Store(false)
		b.Log.Info("this replica polls", "owner", l.ID())
		_ = p.Run(held)
		if errors.Is(context.Cause(held), lease.ErrLost) { // the lease logged why
			b.Log.Info("this replica stopped polling; standing by")
		}
	}, func() { b.Log.Info("another replica polls; standing by") })
}

// pollerOf is this replica's poller and the lease it polls under: its
// claims name this process (core.RunAs), and while it holds the lease
// every other poller process is known to have stopped.
func pollerOf(b *wiring.Bot) (*poller.Poller, *lease.Lease) {
	l := lease.New(b.Store.For(storage.CoreNamespace), PollLeaseKey, hostname(), pollLease, lease.WithLogger(b.Log))
	runner := PollRunner(l)
	handle := func(ctx context.Context, u *models.Update) error {
		return b.App.HandleUpdate(core.RunAs(ctx, runner), u)
	}
	p := poller.New(b.Client, b.Store.For(storage.CoreNamespace), handle, poller.WithLogger(b.Log),
		poller.WithGrace(handlerGrace), poller.WithCutAtOnce(lease.ErrLost), poller.WithMetrics(b.Metrics))
	return p, l
}

// PollLeaseKey is the polling lease's key in the core's namespace.
const PollLeaseKey = "poller:lease"

// PollRunner is the runner of a poller that polls under l: its claims name
// this process, and another process's run is gone while this one holds l,
// as the store says (a store that blips: what the renewals last said).
func PollRunner(l *lease.Lease) core.Runner {
	return core.Runner{ID: l.ID(), Gone: func(ctx context.Context, _ string) bool {
		holds, err := l.Holds(ctx)
		if err != nil {
			return l.Holding()
		}
		return holds
	}}
}

// drain works, in webhook mode, the updates a poller parked before the
// switch (Telegram will not send them again), holding the polling lease
// meanwhile: one replica does it, and no poller of the deploy before runs
// alongside. Webhook updates are served meanwhile.
func drain(ctx context.Context, b *wiring.Bot) {
	p, l := pollerOf(b)
	once, done := context.WithCancel(ctx)
	defer done()
	_ = l.Hold(once, func(held context.Context) {
		_ = p.Drain(held)
		done()
	}, nil)
}

// registerWebhook points Telegram at this deployment's webhook (webhook
// mode), retrying with back-off until it succeeds or the process stops.
func registerWebhook(ctx context.Context, b *wiring.Bot) {
	for attempt := 0; ; attempt++ {
		err := b.Client.SetWebhook(ctx, b.Config.WebhookURL, b.Config.WebhookSecret.Reveal(), telegram.AllowedUpdates)
		if err == nil {
			b.Log.Info("webhook mode: Telegram delivers to the webhook; not polling", "url", b.Config.WebhookURL)
			return
		}
		b.Log.Error("setWebhook failed; retrying", "err", err)
		if pause.For(ctx, pause.Backoff(attempt, time.Second, time.Minute)) != nil {
			return
		}
	}
}

// hostname names this replica; without one, a name of this process only
// (a restart then waits out its predecessor's lease).
func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return fmt.Sprintf("replica-%d", time.Now().UnixNano())
	}
	return h
}
