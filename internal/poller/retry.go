package poller

import (
	"context"
	"errors"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// Back-off bounds.
const (
	retryMin    = time.Second
	retryMax    = 30 * time.Second
	conflictMin = 10 * time.Second
	conflictMax = 60 * time.Second
)

// backOff waits out a getUpdates error; failures and conflicts count the
// ones in a row.
func (p *Poller) backOff(ctx context.Context, err error, failures, conflicts *int) {
	var d time.Duration
	var ue *telegram.UpdatesError
	switch {
	case errors.Is(err, telegram.ErrConflict):
		d = pause.Backoff(*conflicts, conflictMin, conflictMax)
		*conflicts++
		p.log.Error("getUpdates conflict: another poller is running or a webhook is set; backing off",
			"err", err, "retry_in", d)
	case errors.Is(err, telegram.ErrUnauthorized):
		// Nothing works until an operator acts: as loud as a conflict.
		d = pause.Backoff(*failures, retryMin, retryMax)
		*failures++
		p.log.Error("getUpdates refused: Telegram rejects the bot token (401); set a valid TELEGRAM_BOT_TOKEN",
			"retry_in", d)
	case errors.As(err, &ue) && ue.RetryAfter > 0:
		d = ue.RetryAfter
		p.log.Warn("getUpdates rate limited", "retry_in", d)
	default:
		d = pause.Backoff(*failures, retryMin, retryMax)
		*failures++
		p.log.Warn("getUpdates failed", "err", err, "retry_in", d)
	}
	_ = p.wait(ctx, d)
}
