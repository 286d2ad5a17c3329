package poller

import "github.com/go-telegram/bot/models"

// The per-chat queues: each lane's updates wait in order for its one
// worker (see work.go for what one does).

// laneKey names a lane: a queue of updates handled one at a time, in id
// order. A chat's messages share one. A button press is a lane of its own,
// as is an update without a chat: a press must be answered at once (the
// user's spinner turns), never after the replies its chat's messages wait
// to send at Telegram's pace; what makes a press stale is in its data,
// checked under CAS, so presses need no order among themselves.
type laneKey struct {
	chat int64
	solo int64 // the update's id, when it is handled alone
}

func laneOf(u *models.Update) laneKey {
	if u.Message != nil {
		return laneKey{chat: u.Message.Chat.ID}
	}
	return laneKey{solo: u.ID}
}

// lane is one queue; it lives, and its worker with it, while it holds an
// update.
type lane struct {
	entries  []*entry
	failures int // in a row, for the back-off
}

// head is lane k's next update, marked running, with its body (nil: to be
// loaded from the inbox). When the lane is empty it is gone, and so is its
// worker: e is nil.
func (q *queues) head(k laneKey) (e *entry, u *models.Update) {
	q.mu.Lock()
	defer q.mu.Unlock()
	l := q.lanes[k]
	if len(l.entries) == 0 {
		delete(q.lanes, k)
		return nil, nil
	}
	e = l.entries[0]
	q.move(e, running, false)
	return e, e.u
}

// setBody keeps the body of a head loaded from the inbox.
func (q *queues) setBody(e *entry, u *models.Update) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e.u = u
}

// failed counts a failure of lane k's head e, which waits to be tried
// again, and returns how many in a row.
func (q *queues) failed(k laneKey, e *entry) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.move(e, retrying, false)
	q.lanes[k].failures++
	return q.lanes[k].failures
}

// unrun puts a head that no longer runs back among the waiting.
func (q *queues) unrun(e *entry) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.durable {
		q.move(e, parked, false)
	} else {
		q.move(e, fetched, false)
	}
}
