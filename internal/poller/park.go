package poller

import (
	"maps"
	"slices"

	"github.com/go-telegram/bot/models"
	"golang.org/x/sync/errgroup"
)

// Every fetched update is written to the inbox while its lane runs it from
// memory, so that the next getUpdates may confirm it to Telegram without
// waiting for its handler: a crash after that loses nothing, and a slow
// chat never holds the offset. One that is done before its write starts
// is not written; one written is deleted when done.

// parkWriters bounds the inbox writes made at once.
const parkWriters = 16

// park writes every held update not yet durable to the inbox, at most
// parkWriters at once, and returns when each is written or done; the first
// failure is returned (the offset stays at the oldest not written). The
// writes run in the handlers' context, which outlives a stop by the grace:
// a write cut by the stop may still land, and its item, not known as
// written, would be left with nobody to delete it.
func (s *session) park() error {
	var g errgroup.Group
	g.SetLimit(parkWriters)
	for _, e := range s.q.toPark() {
		g.Go(func() error {
			u := s.q.parking(e)
			if u == nil {
				return nil // done meanwhile
			}
			err := s.inbox.park(s.handlers, e.lane, u)
			if s.q.parked(e, err == nil) {
				s.drop(e) // done while it was written
			}
			return err
		})
	}
	return g.Wait()
}

// toPark is every held update not durable yet.
func (q *queues) toPark() []*entry {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Collect(maps.Values(q.unparked))
}

// parking marks e as being written and returns its body; nil when it is
// done and needs no writing.
func (q *queues) parking(e *entry) *models.Update {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.done {
		return nil
	}
	e.parking = true
	return e.u
}

// parked records the end of e's write; ok when it landed. drop says that
// e was handled meanwhile, so its inbox item is the caller's to delete.
func (q *queues) parked(e *entry, ok bool) (drop bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e.parking = false
	if !ok {
		return false
	}
	e.durable = true
	if e.done {
		return true
	}
	delete(q.unparked, e.id)
	if e.state == fetched {
		q.move(e, parked, false)
	}
	if e.excess && e.state == parked {
		e.u = nil // the lane holds enough in memory: this one waits in the inbox
	}
	return false
}
