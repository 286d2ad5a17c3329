// Package poller drives the container runtime's long polling. It moves the
// getUpdates offset past an update only after the update was handled (or
// the core deliberately dropped it), so a storage outage delays updates
// instead of losing them.
//
// Each chat has its own queue, handled in order by one worker; chats run in
// parallel (up to a bound) and fetching goes on while they run, so a chat
// waiting on a slow API holds back only its own next messages. Since
// Telegram confirms every update below the offset, the offset stays at the
// oldest update not yet handled; the updates above it that are queued,
// running or done come back with every fetch and are recognised by id.
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

	"github.com/miti99bot/miti99bot/internal/app"
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
	maxChats int
	grace    time.Duration // 0: handlers are never cut by a shutdown
	busyPoll time.Duration
	wait     func(ctx context.Context, d time.Duration) error
	now      func() time.Time
	health   health
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

// WithGrace cuts the handlers still running d after the poller is told to
// stop: a handler cut that way fails (its update is not done, and comes
// again after the restart) instead of being abandoned mid-write when the
// process exits. The container sets it inside its shutdown budget.
func WithGrace(d time.Duration) Option { return func(p *Poller) { p.grace = d } }

// WithClock sets the clock of the health report (tests).
func WithClock(now func() time.Time) Option { return func(p *Poller) { p.now = now } }

// maxChats bounds the chats handled at once. It is high on purpose: a
// chat's worker mostly waits (on Telegram, the store, a slow API), and the
// bound must not let a handful of slow chats hold back every other chat.
const maxChats = 64

// busyPoll is how often the poller looks for new updates while some are
// in flight: getUpdates cannot long-poll then (the unhandled ones below
// the offset come back at once), so it asks again after this pause.
const busyPoll = 100 * time.Millisecond

// New builds a poller.
func New(src Source, handle Handler, opts ...Option) *Poller {
	p := &Poller{
		src: src, handle: handle, log: slog.Default(),
		timeout: 50 * time.Second, maxChats: maxChats, busyPoll: busyPoll, wait: pause.For, now: time.Now,
	}
	for _, o := range opts {
		o(p)
	}
	p.health.start(p.now()) // "not started" counts from here
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
	p.health.start(p.now())
	for attempt := 0; ; attempt++ {
		err := p.src.DeleteWebhook(ctx, false)
		if err == nil {
			break
		}
		p.health.failed(p.now(), err)
		p.log.Error("deleteWebhook failed; polling cannot start", "err", err)
		if p.wait(ctx, backoff(attempt, retryMin, retryMax)) != nil {
			return nil
		}
	}
	p.log.Info("polling started")
	handlers, cut := p.handlerContext(ctx)
	defer cut()
	q := newQueues(p.maxChats)
	var wg sync.WaitGroup
	failures, conflicts := 0, 0
	for ctx.Err() == nil {
		timeout := p.timeout
		if q.busy() {
			timeout = 0
		}
		updates, err := p.src.GetUpdates(ctx, q.offset(), timeout)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			p.health.failed(p.now(), err)
			p.pause(ctx, err, &failures, &conflicts)
			continue
		}
		p.health.ok(p.now())
		failures, conflicts = 0, 0
		for _, key := range q.admit(updates) {
			wg.Go(func() { p.work(ctx, handlers, q, key) })
		}
		if q.busy() && ctx.Err() == nil {
			// Nothing to long-poll for: wait for a handler to finish, or
			// look again shortly for other chats' new updates.
			select {
			case <-q.changed:
			case <-time.After(p.busyPoll):
			case <-ctx.Done():
			}
		}
	}
	wg.Wait()
	p.log.Info("polling stopped")
	return nil
}

// handlerContext is the handlers' context: it survives ctx's end, so an
// update in flight is finished rather than cut off, for the grace period.
func (p *Poller) handlerContext(ctx context.Context) (context.Context, context.CancelFunc) {
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if p.grace > 0 {
		stop := context.AfterFunc(ctx, func() {
			t := time.AfterFunc(p.grace, cancel)
			context.AfterFunc(hctx, func() { t.Stop() })
		})
		return hctx, func() { stop(); cancel() }
	}
	return hctx, cancel
}

// work handles the queue of one chat, in order, until it is empty; then it
// takes the next chat waiting for a worker, if any. After a failure the
// chat's updates go back to Telegram (they are fetched again after a
// back-off), so nothing after a failure runs before it.
func (p *Poller) work(ctx, handlers context.Context, q *queues, key chatKey) {
	for {
		if ctx.Err() != nil {
			q.stop(key) // shutting down: start nothing new
			return
		}
		u := q.next(key)
		if u == nil {
			if next, ok := q.leave(key); ok {
				key = next
				continue
			}
			return
		}
		err := p.handle(handlers, u)
		if err == nil {
			q.done(key, u.ID)
			continue
		}
		var flood *app.FloodError
		var d time.Duration
		switch {
		case errors.As(err, &flood):
			// Telegram asked this chat to wait: it waits, in its own queue,
			// while the other chats go on; the update is not dropped.
			d = flood.RetryAfter
			p.log.Warn("chat waits out Telegram's flood control", "update_id", u.ID, "retry_in", d)
		case errors.Is(err, context.Canceled) && handlers.Err() != nil:
			p.log.Warn("update cut by the shutdown; it will be handled after the restart", "update_id", u.ID)
		default:
			d = backoff(q.failed(key), retryMin, retryMax)
			p.log.Warn("update not handled; it will be fetched again", "update_id", u.ID, "err", err)
		}
		_ = p.wait(ctx, d)
		q.release(key)
		if next, ok := q.leave(key); ok {
			key = next
			continue
		}
		return
	}
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

// queues is the poller's memory of the updates it fetched: per-chat queues,
// which ids are not handled yet (the offset), and which chats have a worker.
type queues struct {
	mu         sync.Mutex
	byChat     map[chatKey][]*models.Update
	queued     map[int64]bool // fetched and queued or running: not admitted again
	unfinished map[int64]bool // fetched and not handled: the offset stays at the oldest
	maxSeen    int64
	working    map[chatKey]bool
	waiting    []chatKey // chats with updates and no worker (the bound was reached)
	failures   map[chatKey]int
	bound      int
	changed    chan struct{}
}

func newQueues(bound int) *queues {
	return &queues{
		byChat: map[chatKey][]*models.Update{}, queued: map[int64]bool{}, unfinished: map[int64]bool{},
		working: map[chatKey]bool{}, failures: map[chatKey]int{}, bound: max(bound, 1), changed: make(chan struct{}, 1),
	}
}

// offset is the oldest update not handled, or past the newest seen.
func (q *queues) offset() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	off := q.maxSeen + 1
	for id := range q.unfinished {
		off = min(off, id)
	}
	return off
}

// busy reports whether some fetched update is not handled yet.
func (q *queues) busy() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.unfinished) > 0
}

// admit queues the updates not seen before, in id order, and returns the
// chats that need a worker started.
func (q *queues) admit(updates []*models.Update) []chatKey {
	slices.SortFunc(updates, func(a, b *models.Update) int { return cmp.Compare(a.ID, b.ID) })
	q.mu.Lock()
	defer q.mu.Unlock()
	var start []chatKey
	for _, u := range updates {
		if q.queued[u.ID] || (u.ID <= q.maxSeen && !q.unfinished[u.ID]) {
			continue // in memory already, or handled
		}
		q.queued[u.ID], q.unfinished[u.ID] = true, true
		q.maxSeen = max(q.maxSeen, u.ID)
		k := keyOf(u)
		q.byChat[k] = append(q.byChat[k], u)
		if q.working[k] || slices.Contains(q.waiting, k) {
			continue
		}
		if len(q.working) < q.bound {
			q.working[k] = true
			start = append(start, k)
		} else {
			q.waiting = append(q.waiting, k)
		}
	}
	return start
}

// next is the chat's next update; nil when its queue is empty.
func (q *queues) next(k chatKey) *models.Update {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.byChat[k]) == 0 {
		return nil
	}
	return q.byChat[k][0]
}

// done records the chat's first update as handled.
func (q *queues) done(k chatKey, id int64) {
	q.mu.Lock()
	q.byChat[k] = q.byChat[k][1:]
	delete(q.queued, id)
	delete(q.unfinished, id)
	delete(q.failures, k)
	q.mu.Unlock()
	q.signal()
}

// failed counts a failure of the chat and returns how many in a row.
func (q *queues) failed(k chatKey) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.failures[k]++
	return q.failures[k]
}

// release forgets the chat's queue, so its updates are fetched (and
// queued, in order) again.
func (q *queues) release(k chatKey) {
	q.mu.Lock()
	for _, u := range q.byChat[k] {
		delete(q.queued, u.ID)
	}
	delete(q.byChat, k)
	q.mu.Unlock()
	q.signal()
}

// leave ends the worker of chat k and hands it the next waiting chat.
func (q *queues) leave(k chatKey) (chatKey, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.byChat[k]) > 0 {
		return k, true // updates came in meanwhile: keep going
	}
	delete(q.byChat, k)
	delete(q.working, k)
	if len(q.waiting) == 0 {
		return chatKey{}, false
	}
	next := q.waiting[0]
	q.waiting = q.waiting[1:]
	q.working[next] = true
	return next, true
}

// stop ends the worker of chat k at shutdown.
func (q *queues) stop(k chatKey) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.working, k)
}

func (q *queues) signal() {
	select {
	case q.changed <- struct{}{}:
	default:
	}
}
