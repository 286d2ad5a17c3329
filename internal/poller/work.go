package poller

import (
	"context"
	"errors"
	"sync"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/pause"
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

// start runs a worker for each new lane.
func (s *session) start(lanes []laneKey) {
	for _, k := range lanes {
		s.wg.Go(func() { s.work(k) })
	}
}

// work handles lane k's updates, in order, until it has none. A failed
// update stays at the head of its lane and is tried again after a
// back-off, so nothing after it in the lane runs before it.
//
// Every lane runs at once, however many: a handler mostly waits (on
// Telegram, the store, a slow source), so a bound on running lanes lets
// the chats waiting on one slow source hold up every other chat. What
// costs is bounded where it is spent: each lane's memory (laneMemory),
// Telegram's pace (the client's flood control), the store by its own
// client (MongoDB's connection pool, bbolt's one writer).
func (s *session) work(k laneKey) {
	for s.ctx.Err() == nil { // shutting down: start nothing new
		e, u := s.q.head(k)
		if e == nil {
			return
		}
		err := s.run(k, e, u)
		if err == nil {
			s.finish(k, e)
		} else if !s.retry(k, e, err) {
			return
		}
	}
}

// run handles e, loading its body from the inbox if only the inbox has it.
func (s *session) run(k laneKey, e *entry, u *models.Update) error {
	if u == nil {
		var err error
		u, err = s.inbox.load(s.handlers, k, e.id)
		if errors.Is(err, storage.ErrNotFound) {
			return nil // handled and dropped by the run before, which stopped between the two
		}
		if err != nil {
			// The handler logs its own failures; this one is the poller's.
			s.p.log.Warn("a parked update cannot be read from the inbox", "update_id", e.id, "err", err)
			return err
		}
		s.q.setBody(e, u)
	}
	return s.p.handle(s.handlers, u)
}

// finish forgets a handled update, and its inbox item if it has one.
func (s *session) finish(k laneKey, e *entry) {
	if s.q.done(k, e) {
		s.drop(e)
	}
}

// drop deletes a handled update's inbox item beside the lane's next run,
// which need not wait for it: an item left behind is skipped as a
// duplicate after a restart.
func (s *session) drop(e *entry) {
	s.wg.Go(func() {
		if err := s.inbox.drop(s.handlers, e.lane, e.id); err != nil {
			s.p.log.Warn("a handled update stays in the inbox; after a restart it is skipped as a duplicate", "update_id", e.id, "err", err)
		}
	})
}

// retry waits out lane k's failure on its head e; false when this worker
// ends (shutdown).
func (s *session) retry(k laneKey, e *entry, err error) bool {
	if errors.Is(err, context.Canceled) && s.handlers.Err() != nil {
		// Cut by a stop's end of grace or by the role's loss: the cause
		// says which (a store that failed every renewal is not a shutdown).
		s.p.log.Warn("update cut before it was done; the next poller handles it", "update_id", e.id, "cause", context.Cause(s.handlers))
		s.q.unrun(e)
		return false
	}
	d := pause.Backoff(s.q.failed(k, e)-1, retryMin, retryMax)
	var flood *app.FloodError
	switch {
	case errors.As(err, &flood):
		// Telegram asked this chat to wait: it waits, in its own lane,
		// while the other chats go on; the update is not dropped.
		d = flood.RetryAfter
		s.p.log.Warn("chat waits out Telegram's flood control", "update_id", e.id, "retry_in", d)
	case errors.Is(err, app.ErrInFlight):
		s.p.log.Info("update being handled elsewhere; it will be tried again", "update_id", e.id, "retry_in", d)
	default:
		// The cause is logged once, where it happened (see Handler).
		s.p.log.Info("update not handled; it will be tried again", "update_id", e.id, "retry_in", d)
	}
	stopped := s.p.wait(s.ctx, d) != nil
	s.q.unrun(e)
	return !stopped
}
