package poller

import "time"

// The oldest held update is the one every other waits behind in the
// worst case: the same one oldest for long means a lane is stuck (a
// handler that never returns, a claim nobody takes over), whatever the
// others do.

// stalled is the oldest held update and since when it has been the oldest
// Health saw; ok is false when nothing is held.
func (q *queues) stalled(now time.Time) (id int64, since time.Time, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for held := range q.held {
		if !ok || held < id {
			id, ok = held, true
		}
	}
	if ok && id != q.oldest {
		q.oldest, q.since = id, now
	}
	return id, q.since, ok
}
