// Package poller drives the container runtime's long polling. It moves the
// getUpdates offset past an update only after the update was handled (or
// the core deliberately dropped it), so a storage outage delays updates
// instead of losing them. Updates of one chat are handled in order,
// different chats in parallel, bounded.
package poller

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// Source is the part of the Telegram client the poller needs.
type Source interface {
	DeleteWebhook(ctx context.Context, dropPending bool) error
	GetUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]*models.Update, error)
}

// The container polls through the Telegram client.
var _ Source = (*telegram.Client)(nil)

// Handler handles one update; an error means "not handled, deliver again".
type Handler func(ctx context.Context, u *models.Update) error

// Poller is the long-polling loop.
type Poller struct {
	src      Source
	handle   Handler
	log      *slog.Logger
	timeout  time.Duration
	parallel int
	wait     func(ctx context.Context, d time.Duration) error
}

// Option configures New.
type Option func(*Poller)

// WithLongPoll sets getUpdates' timeout (default 50 s).
func WithLongPoll(d time.Duration) Option { return func(p *Poller) { p.timeout = d } }

// WithWait replaces how the poller waits between retries (tests).
func WithWait(f func(ctx context.Context, d time.Duration) error) Option {
	return func(p *Poller) { p.wait = f }
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(p *Poller) { p.log = l } }

// New builds a poller.
func New(src Source, handle Handler, opts ...Option) *Poller {
	p := &Poller{
		src: src, handle: handle, log: slog.Default(),
		timeout: 50 * time.Second, parallel: 8, wait: pause.For,
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

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

// Run deletes any webhook (keeping pending updates), then polls until ctx
// ends. On return every handler it started has finished.
func (p *Poller) Run(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		err := p.src.DeleteWebhook(ctx, false)
		if err == nil {
			break
		}
		p.log.Error("deleteWebhook failed; polling cannot start", "err", err)
		if p.wait(ctx, backoff(attempt, retryMin, retryMax)) != nil {
			return nil
		}
	}
	p.log.Info("polling started")
	var offset int64
	failures, conflicts := 0, 0
	for ctx.Err() == nil {
		updates, err := p.src.GetUpdates(ctx, offset, p.timeout)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			p.pause(ctx, err, &failures, &conflicts)
			continue
		}
		failures, conflicts = 0, 0
		if len(updates) == 0 {
			continue
		}
		next, complete := p.handleBatch(ctx, updates)
		offset = max(offset, next)
		if !complete && ctx.Err() == nil {
			// Something failed (the store, likely): give it a moment
			// before the same updates come back.
			failures++
			_ = p.wait(ctx, backoff(failures, retryMin, retryMax))
		}
	}
	p.log.Info("polling stopped")
	return nil
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

// handleBatch handles a batch and returns the next offset: the id of the
// first update not handled (or past the last). It reports whether every
// update was handled.
func (p *Poller) handleBatch(ctx context.Context, updates []*models.Update) (int64, bool) {
	slices.SortFunc(updates, func(a, b *models.Update) int { return cmp.Compare(a.ID, b.ID) })
	var order []chatKey
	byChat := map[chatKey][]*models.Update{}
	for _, u := range updates {
		k := keyOf(u)
		if _, ok := byChat[k]; !ok {
			order = append(order, k)
		}
		byChat[k] = append(byChat[k], u)
	}

	var (
		mu   sync.Mutex
		done = map[int64]bool{}
		wg   sync.WaitGroup
		sem  = make(chan struct{}, p.parallel)
	)
	for _, k := range order {
		if ctx.Err() != nil {
			break // shutting down: start nothing new
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			for _, u := range byChat[k] {
				if ctx.Err() != nil {
					return
				}
				if !p.handleOne(ctx, u) {
					return // keep this chat's order: nothing after a failure
				}
				mu.Lock()
				done[u.ID] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, u := range updates {
		if !done[u.ID] {
			return u.ID, false
		}
	}
	return updates[len(updates)-1].ID + 1, true
}

// handleTimeout bounds one update's handling.
const handleTimeout = 60 * time.Second

// handleOne runs the handler. Its context survives the poller's shutdown,
// so an update in flight is finished rather than cut off.
func (p *Poller) handleOne(ctx context.Context, u *models.Update) bool {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
	defer cancel()
	if err := p.handle(hctx, u); err != nil {
		p.log.Warn("update not handled; it will be fetched again", "update_id", u.ID, "err", err)
		return false
	}
	return true
}

type chatKey struct {
	chat   int64
	update int64 // for updates without a chat: each is its own queue
}

func keyOf(u *models.Update) chatKey {
	switch {
	case u.Message != nil:
		return chatKey{chat: u.Message.Chat.ID}
	case u.CallbackQuery != nil && u.CallbackQuery.Message.Message != nil:
		return chatKey{chat: u.CallbackQuery.Message.Message.Chat.ID}
	}
	return chatKey{update: u.ID}
}
