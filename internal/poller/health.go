package poller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/telegram"
)

// stallPeriods is how many long-poll periods may pass without a getUpdates
// that answered before polling counts as stalled: a healthy long poll
// answers at least once a period, even with no update.
const stallPeriods = 3

// health is what the poller knows of its own state, for /healthz.
type health struct {
	mu           sync.Mutex
	started      time.Time
	lastOK       time.Time
	lastErr      error
	unauthorized bool
}

func (h *health) start(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started, h.lastOK, h.lastErr, h.unauthorized = now, time.Time{}, nil, false
}

func (h *health) ok(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastOK, h.lastErr, h.unauthorized = now, nil, false
}

func (h *health) failed(_ time.Time, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastErr = err
	h.unauthorized = errors.Is(err, telegram.ErrUnauthorized)
}

// Health is nil while polling works. It fails when Telegram rejects the
// token, when no getUpdates has answered for a few long-poll periods
// (polling never started: deleteWebhook failing; or it stalled), or when
// the oldest update held has made no progress for long (a stuck lane).
// The error says why in words safe to show anyone: no token, no Telegram
// text, no chat.
func (p *Poller) Health(context.Context) error {
	now := p.now()
	if q := p.backlog.Load(); q != nil {
		if id, since, ok := q.stalled(now); ok && now.Sub(since) > p.stuck {
			return fmt.Errorf("polling: no progress on the oldest held update for %s (update %d)", now.Sub(since).Round(time.Second), id)
		}
	}
	h := &p.health
	h.mu.Lock()
	defer h.mu.Unlock()
	stall := stallPeriods * max(p.timeout, 10*time.Second)
	switch {
	case h.unauthorized:
		return errors.New("polling: Telegram rejects the bot token (401); set a valid TELEGRAM_BOT_TOKEN")
	case h.lastOK.IsZero() && now.Sub(h.started) > stall:
		return fmt.Errorf("polling: not started after %s (%s)", now.Sub(h.started).Round(time.Second), class(h.lastErr))
	case !h.lastOK.IsZero() && now.Sub(h.lastOK) > stall:
		return fmt.Errorf("polling: no getUpdates has answered for %s (%s)", now.Sub(h.lastOK).Round(time.Second), class(h.lastErr))
	}
	return nil
}

// class names an error of the Bot API without its text.
func class(err error) string {
	var ue *telegram.UpdatesError
	switch {
	case err == nil:
		return "no error reported"
	case errors.Is(err, telegram.ErrConflict):
		return "conflict: a webhook is set or another poller runs"
	case errors.As(err, &ue) && ue.Code != 0:
		return fmt.Sprintf("Telegram answered %d", ue.Code)
	}
	return "Telegram unreachable or answering errors"
}
