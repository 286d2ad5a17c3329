package container

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/lease"
	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/poller"
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
func poll(ctx context.Context, b *wiring.Bot) {
	p := poller.New(b.Client, b.Store.For(core.CoreNamespace), b.App.HandleUpdate,
		poller.WithLogger(b.Log), poller.WithGrace(handlerGrace), poller.WithMetrics(b.Metrics))
	var polling atomic.Bool
	b.AddHealth(func(ctx context.Context) error { // the container answers nobody if polling is dead
		if !polling.Load() {
			return nil
		}
		return p.Health(ctx)
	})
	owner := fmt.Sprintf("%s-%d", hostname(), time.Now().UnixNano())
	l := lease.New(b.Store.For(core.CoreNamespace), "poller:lease", owner, pollLease)
	_ = l.Hold(ctx, func(held context.Context) {
		polling.Store(true)
		defer polling.Store(false)
		b.Log.Info("this replica polls", "owner", owner)
		_ = p.Run(held)
		if context.Cause(held) == lease.ErrLost {
			b.Log.Warn("the polling lease went to another replica; standing by")
		}
	}, func() { b.Log.Info("another replica polls; standing by") })
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
		if pause.For(ctx, min(time.Second<<min(attempt, 6), time.Minute)) != nil {
			return
		}
	}
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "replica"
	}
	return h
}
