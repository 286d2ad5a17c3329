package poller

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"
	"golang.org/x/sync/errgroup"
)

// settle is how long a fetched update that is running may take before it
// is parked anyway. Most updates are handled within it and never touch
// the inbox; a slower one costs a write and a delete, and holds the next
// fetch (every other chat's new updates) no longer than this.
const settle = 250 * time.Millisecond

// parkWriters bounds the inbox writes made at once.
const parkWriters = 16

// parkJob is one update to write to the inbox.
type parkJob struct {
	e *entry
	u *models.Update
}

// confirm makes every fetched update durable or handled, so that the next
// getUpdates may confirm them all to Telegram: the ones that cannot run
// at once (behind others in their lane, or waiting out a failure) are
// parked now, the running ones after settle if they are still running.
// Nothing is confirmed that is not handled or in the inbox.
func (s *session) confirm(ctx context.Context) error {
	deadline := time.NewTimer(s.p.settle)
	defer deadline.Stop()
	late := false
	for {
		if jobs := s.q.toPark(late); len(jobs) > 0 {
			if err := s.park(ctx, jobs); err != nil {
				return err
			}
		}
		if s.q.unconfirmed() == 0 {
			return nil
		}
		select {
		case <-s.q.changed:
		case <-deadline.C:
			late = true
		case <-ctx.Done():
			return nil
		}
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

// toPark picks the fetched updates to make durable now: every one that
// will not run at once, or every one when late. They are marked as being
// written.
func (q *queues) toPark(late bool) []parkJob {
	q.mu.Lock()
	defer q.mu.Unlock()
	var jobs []parkJob
	for _, e := range q.unparked {
		if e.parking || (!late && q.soon(e)) {
			continue
		}
		e.parking = true
		jobs = append(jobs, parkJob{e, e.u})
	}
	return jobs
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
