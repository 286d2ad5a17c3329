// Package poller drives the container runtime's long polling without
// losing an update or letting one chat hold up the others.
//
// Telegram confirms every update below the offset of a getUpdates, and
// returns at most 100 from there. So the poller confirms an update only
// once it is handled or stored (the inbox): every update fetched is
// written there while its lane already runs it from memory, and the next
// getUpdates waits only for those writes. The offset never waits on a slow
// chat, and every chat is heard whatever one chat waits for.
//
// An update's life: fetched (in memory; Telegram still has it), parked
// (in the inbox too; confirmed), running (its handler), then done (its
// inbox item deleted). A failed run is retrying: it waits out a back-off
// or flood wait at the head of its lane.
//
// Each chat's messages are a lane, handled in order by one worker; a
// button press is a lane of its own, answered at once whatever its chat
// waits for; every lane runs at once (see work). A lane keeps a bounded
// number of updates in memory; the rest wait only in the inbox. A restart
// (or the next replica to poll) works the inbox first, each lane in order,
// then what Telegram still has; Drain works it without polling.
package poller

import (
	"context"
	"log/slog"
	"math"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
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
// It logs its failure itself (core.App.HandleUpdate does, once, with the
// cause): the poller only says that it tries again.
type Handler func(ctx context.Context, u *models.Update) error

// Poller is the long-polling loop.
type Poller struct {
	src     Source
	inbox   inbox
	handle  Handler
	log     *slog.Logger
	metrics *metrics.Metrics
	timeout time.Duration
	memory  int           // updates a lane keeps in memory
	grace   time.Duration // 0: handlers are never cut by a shutdown
	cutOn   error         // a stop with this cause cuts the handlers at once
	stuck   time.Duration
	wait    func(ctx context.Context, d time.Duration) error
	now     func() time.Time
	health  health
	backlog atomic.Pointer[queues] // the running session's, for Health
}

// New builds a poller that parks its backlog in store, the core namespace
// (the same store on every replica).
func New(src Source, store storage.KVStore, handle Handler, opts ...Option) *Poller {
	p := &Poller{
		src: src, inbox: inbox{store}, handle: handle, log: slog.Default(),
		timeout: 50 * time.Second, memory: laneMemory, stuck: stuckAfter,
		wait: pause.For, now: time.Now,
	}
	for _, o := range opts {
		o(p)
	}
	p.health.start(p.now()) // "not started" counts from here
	return p
}

// Run deletes any webhook (keeping pending updates), then polls until ctx
// ends. On return every handler it started has finished. It starts with
// the backlog the inbox holds.
func (p *Poller) Run(ctx context.Context) error {
	p.health.start(p.now())
	if !p.deleteWebhook(ctx) {
		return nil
	}
	s, end := p.session(ctx)
	defer end()
	backlog, ok := p.listInbox(ctx)
	if !ok {
		return nil
	}
	p.log.Info("polling started", "parked", len(backlog))
	var failures, conflicts, parkFailures int
	for first := true; ctx.Err() == nil; {
		timeout := p.timeout
		if first || parkFailures > 0 {
			timeout = 0 // the inbox waits for the first answer; unparked updates are fetched again at once
		}
		updates, err := p.src.GetUpdates(ctx, s.q.offset(), timeout)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			p.health.failed(p.now(), err)
			p.backOff(ctx, err, &failures, &conflicts)
			continue
		}
		p.health.ok(p.now())
		failures, conflicts = 0, 0
		if first {
			// Whatever Telegram still has comes again, in order: of the
			// inbox, only what it confirmed before goes first.
			s.start(s.q.recover(backlog, firstID(updates)))
			first, backlog = false, nil
		}
		s.start(s.q.admit(updates))
		if err := s.park(); err != nil && ctx.Err() == nil {
			d := pause.Backoff(parkFailures, retryMin, retryMax)
			parkFailures++
			p.log.Warn("updates could not be parked; Telegram keeps them meanwhile", "err", err, "retry_in", d)
			_ = p.wait(ctx, d)
			continue
		}
		parkFailures = 0
	}
	s.wg.Wait()
	s.stopped("polling stopped", "polling stopped; updates are left for the next poller")
	return nil
}

// session begins a Run's or a Drain's backlog and workers; end, once its
// workers are done, cuts their context and clears what Health and the
// metrics read of it.
func (p *Poller) session(ctx context.Context) (s *session, end func()) {
	handlers, cut := p.handlerContext(ctx)
	s = &session{p: p, inbox: p.inbox, ctx: ctx, handlers: handlers,
		q: newQueues(p.memory, p.report)}
	p.backlog.Store(s.q)
	return s, func() {
		cut()
		p.backlog.Store(nil)
		p.zeroReport()
	}
}

// deleteWebhook deletes any webhook, keeping pending updates, until it
// succeeds; false when ctx ended first.
func (p *Poller) deleteWebhook(ctx context.Context) bool {
	return p.until(ctx, "deleteWebhook failed; polling cannot start", func() error {
		err := p.src.DeleteWebhook(ctx, false)
		if err != nil {
			p.health.failed(p.now(), err)
		}
		return err
	})
}

// listInbox reads the parked backlog, until it can; false when ctx ended
// first.
func (p *Poller) listInbox(ctx context.Context) (items []heldItem, ok bool) {
	ok = p.until(ctx, "the parked backlog cannot be read; polling waits for the store", func() (err error) {
		items, err = p.inbox.list(ctx)
		return err
	})
	return items, ok
}

// until calls f until it succeeds, logging each failure with msg and
// backing off; false when ctx ended first.
func (p *Poller) until(ctx context.Context, msg string, f func() error) bool {
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil {
			return true
		}
		p.log.Error(msg, "err", err)
		if p.wait(ctx, pause.Backoff(attempt, retryMin, retryMax)) != nil {
			return false
		}
	}
}

// firstID is the oldest update of a batch; past every id when it is empty.
func firstID(updates []*models.Update) int64 {
	first := int64(math.MaxInt64)
	for _, u := range updates {
		first = min(first, u.ID)
	}
	return first
}

// report sets the backlog gauge of one state.
func (p *Poller) report(state string, n int) { p.metrics.PollerBacklog(state, n) }

// zeroReport clears the gauges when polling stops: a replica standing by
// holds nothing.
func (p *Poller) zeroReport() {
	for _, name := range stateNames {
		p.report(name, 0)
	}
}
