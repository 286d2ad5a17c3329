package poller

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"
	"golang.org/x/sync/errgroup"
)

// settle is how long a fetched update that is running may take before it
// is parked anyway. Most updates are handled within it and never touch
// the inbox; a slower one costs a write and a delete.
const settle = time.Second

// busyPoll is how often the poller asks Telegram for other chats' updates
// while a fetched update settles: getUpdates cannot long-poll then (the
// unconfirmed ones come back at once).
const busyPoll = 100 * time.Millisecond

// parkWriters bounds the inbox writes made at once.
const parkWriters = 16

// parkJob is one update to write to the inbox.
type parkJob struct {
	e *entry
	u *models.Update
}

// confirm makes the fetched updates durable or handled, so that the next
// getUpdates may confirm them to Telegram: the ones that cannot run at once
// (behind others in their lane, or waiting out a failure) are parked now,
// the running ones once they ran for settle. It returns when none is left
// unconfirmed, or after busyPoll, so that the others chats' new updates are
// fetched meanwhile. Nothing is confirmed that is not handled or in the
// inbox.
func (s *session) confirm(ctx context.Context) error {
	poll := time.NewTimer(s.p.busyPoll)
	defer poll.Stop()
	settle := s.p.settle
	for {
		if jobs := s.q.toPark(time.Now(), settle); len(jobs) > 0 {
			if err := s.park(ctx, jobs); err != nil {
				return err
			}
		}
		due, ok := s.q.nextDue(s.p.settle)
		if !ok {
			return nil
		}
		wake := time.NewTimer(time.Until(due))
		select {
		case <-s.q.changed:
		case <-wake.C:
		case <-poll.C:
			wake.Stop()
			if !s.q.windowFull() {
				return nil
			}
			// A fetch would return only updates held already: the others
			// are past its 100. Park the running ones now instead.
			settle = 0
		case <-ctx.Done():
			wake.Stop()
			return nil
		}
		wake.Stop()
	}
}

// park writes jobs to the inbox, at most parkWriters at once. Each one
// that lands is durable at once; the first failure is returned.
func (s *session) park(ctx context.Context, jobs []parkJob) error {
	var g errgroup.Group
	g.SetLimit(parkWriters)
	for _, j := range jobs {
		g.Go(func() error {
			err := s.inbox.park(ctx, j.e.lane, j.u)
			if s.q.parked(j.e, err == nil) {
				// Handled while it was written: it goes again.
				s.drop(j.e)
			}
			return err
		})
	}
	return g.Wait()
}

// maxBatch is the most updates a getUpdates returns (Telegram's limit).
const maxBatch = 100

// windowFull reports whether the next getUpdates, from the offset, would
// return only updates seen already: as many as a batch lie between the
// offset and the newest seen (fewer when Telegram skipped ids).
func (q *queues) windowFull() bool {
	off := q.offset()
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.maxSeen-off+1 >= maxBatch
}

// toPark picks the fetched updates to make durable now: every one that
// will not run at once, and every one that has run for settle. They are
// marked as being written.
func (q *queues) toPark(now time.Time, settle time.Duration) []parkJob {
	q.mu.Lock()
	defer q.mu.Unlock()
	var jobs []parkJob
	for _, e := range q.unparked {
		if e.parking || (q.soon(e) && now.Sub(e.fetched) < settle) {
			continue
		}
		e.parking = true
		jobs = append(jobs, parkJob{e, e.u})
	}
	return jobs
}

// nextDue is when the next update running unconfirmed is to be parked;
// ok is false when none is left unconfirmed.
func (q *queues) nextDue(settle time.Duration) (due time.Time, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range q.unparked {
		if d := e.fetched.Add(settle); !ok || d.Before(due) {
			due, ok = d, true
		}
	}
	return due, ok
}

// soon reports whether e runs now or next: the head of a lane with a
// worker. The caller holds q.mu.
func (q *queues) soon(e *entry) bool {
	l := q.lanes[e.lane]
	return l != nil && l.worker == active && len(l.entries) > 0 && l.entries[0] == e
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
