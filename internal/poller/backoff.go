package poller

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/miti99bot/miti99bot/internal/telegram"
)

// Backoff bounds.
const (
	retryMin    = time.Second
	retryMax    = 30 * time.Second
	conflictMin = 10 * time.Second
	conflictMax = 60 * time.Second
)

// backoff is "full jitter": a random wait up to an exponentially growing
// cap, so restarted instances do not retry in lockstep.
func backoff(attempt int, lo, hi time.Duration) time.Duration {
	ceiling := min(hi, lo<<min(attempt, 10))
	return lo/2 + rand.N(ceiling-lo/2+1)
}

// pause waits out a getUpdates error.
func (p *Poller) pause(ctx context.Context, err error, failures, conflicts *int) {
	var d time.Duration
	var ue *telegram.UpdatesError
	switch {
	case errors.Is(err, telegram.ErrConflict):
		*conflicts++
		d = backoff(*conflicts, conflictMin, conflictMax)
		p.log.Error("getUpdates conflict: another poller is running or a webhook is set; backing off",
			"err", err, "retry_in", d)
	case errors.Is(err, telegram.ErrUnauthorized):
		// Nothing works until an operator acts: as loud as a conflict.
		*failures++
		d = backoff(*failures, retryMin, retryMax)
		p.log.Error("getUpdates refused: Telegram rejects the bot token (401); set a valid TELEGRAM_BOT_TOKEN",
			"retry_in", d)
	case errors.As(err, &ue) && ue.RetryAfter > 0:
		d = ue.RetryAfter
		p.log.Warn("getUpdates rate limited", "retry_in", d)
	default:
		*failures++
		d = backoff(*failures, retryMin, retryMax)
		p.log.Warn("getUpdates failed", "err", err, "retry_in", d)
	}
	_ = p.wait(ctx, d)
}
