package poller

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// session is one Run: its backlog in memory and its workers.
type session struct {
	p     *Poller
	q     *queues
	inbox inbox
	// ctx ends when polling stops; handlers, the handlers' context, a
	// grace period later (see handlerContext).
	ctx, handlers context.Context
	wg            sync.WaitGroup
}

// start runs a worker for each lane.
func (s *session) start(lanes []laneKey) {
	for _, k := range lanes {
		s.wg.Go(func() { s.work(k) })
	}
}

// work handles lane k's updates, in order, until it has none; then it
// takes the next lane waiting for a worker, if any. A failed update stays
// at the head of its lane and is tried again after a back-off, so nothing
// after it in the lane runs before it.
func (s *session) work(k laneKey) {
	for {
		if s.ctx.Err() != nil {
			s.q.stop(k, true) // shutting down: start nothing new
			return
		}
		e, u := s.q.head(k)
		if e == nil {
			next, ok := s.q.leave(k)
			if !ok {
				return
			}
			k = next
			continue
		}
		var err error
		if u == nil { // parked, and its body only in the inbox
			u, err = s.inbox.load(s.handlers, k, e.id)
			if errors.Is(err, storage.ErrNotFound) {
				// Handled and dropped by the run before this one, which
				// stopped between the two.
				s.finish(k, e)
				continue
			}
			if err == nil {
				s.q.setBody(e, u)
			}
		}
		if err == nil {
			err = s.p.handle(s.handlers, u)
		}
		if err == nil {
			s.finish(k, e)
			continue
		}
		if !s.retry(k, e, err) {
			return
		}
	}
}

// finish forgets a handled update, and its inbox item if it has one.
func (s *session) finish(k laneKey, e *entry) {
	if s.q.done(k, e) {
		s.drop(e)
	}
}

// drop deletes a handled update's inbox item.
func (s *session) drop(e *entry) {
	if err := s.inbox.drop(s.handlers, e.lane, e.id); err != nil {
		s.p.log.Warn("a handled update stays in the inbox; after a restart it is skipped as a duplicate", "update_id", e.id, "err", err)
	}
}

// retry waits out lane k's failure on e, then goes on with the lane; false
// when this worker ends (shutdown, or the lane waits for another worker).
// While it waits, the lane is not counted among the active ones.
func (s *session) retry(k laneKey, e *entry, err error) bool {
	var flood *app.FloodError
	var d time.Duration
	switch {
	case errors.Is(err, context.Canceled) && s.handlers.Err() != nil:
		s.p.log.Warn("update cut by the shutdown; it will be handled after the restart", "update_id", e.id)
		s.q.stop(k, true)
		return false
	case errors.As(err, &flood):
		// Telegram asked this chat to wait: it waits, in its own lane,
		// while the other chats go on; the update is not dropped.
		d = flood.RetryAfter
		s.p.log.Warn("chat waits out Telegram's flood control", "update_id", e.id, "retry_in", d)
	case errors.Is(err, app.ErrInFlight):
		d = backoff(s.q.failed(k), retryMin, retryMax)
		s.p.log.Info("update being handled elsewhere; it will be tried again", "update_id", e.id, "retry_in", d)
	default:
		d = backoff(s.q.failed(k), retryMin, retryMax)
		s.p.log.Warn("update not handled; it will be tried again", "update_id", e.id, "err", err, "retry_in", d)
	}
	s.start(s.q.rest(k, e))
	if s.p.wait(s.ctx, d) != nil {
		s.q.stop(k, false)
		return false
	}
	return s.q.resume(k)
}
