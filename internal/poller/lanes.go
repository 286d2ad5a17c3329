package poller

import "github.com/go-telegram/bot/models"

// The per-chat queues: each lane's updates wait in order for its one
// worker; the workers run up to a bound (see work.go for what one does).

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

// kind sorts lanes for the worker bound: chats and presses each have
// their own, so a storm of presses cannot hold up the chats, nor the chats
// the presses.
func (k laneKey) kind() int {
	if k.solo != 0 {
		return 1
	}
	return 0
}

func laneOf(u *models.Update) laneKey {
	if u.Message != nil {
		return laneKey{chat: u.Message.Chat.ID}
	}
	return laneKey{solo: u.ID}
}

// lane is one queue and its worker's state: idle (no worker: empty, or
// waiting for one), active (a worker handles it, counted in the bound) or
// resting (its worker waits out a failure, not counted).
type lane struct {
	entries  []*entry
	worker   laneWorker
	waiting  bool // in queues.waiting
	failures int  // in a row, for the back-off
}

type laneWorker int

const (
	idle laneWorker = iota
	active
	resting
)

// head is lane k's next update, marked running, with its body (nil: to be
// loaded from the inbox); nil when the lane is empty.
func (q *queues) head(k laneKey) (*entry, *models.Update) {
	q.mu.Lock()
	defer q.mu.Unlock()
	l := q.lanes[k]
	if l == nil || len(l.entries) == 0 {
		return nil, nil
	}
	e := l.entries[0]
	q.move(e, running, false)
	return e, e.u
}

// setBody keeps the body of a head loaded from the inbox.
func (q *queues) setBody(e *entry, u *models.Update) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e.u = u
}

// failed counts a failure of lane k and returns how many in a row.
func (q *queues) failed(k laneKey) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lanes[k].failures++
	return q.lanes[k].failures
}

// rest sets lane k aside while its head e waits out a failure: the lane's
// place among the active ones goes to the next waiting lane, returned to
// be started.
func (q *queues) rest(k laneKey, e *entry) []laneKey {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.move(e, retrying, false)
	q.lanes[k].worker = resting
	q.active[k.kind()]--
	defer q.signal()
	return q.handOver(k.kind())
}

// resume makes resting lane k active again if the bound allows; if not it
// waits for a worker like any lane, and its worker ends (false).
func (q *queues) resume(k laneKey) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	l := q.lanes[k]
	q.unrun(l.entries[0])
	if kind := k.kind(); q.active[kind] < q.bound {
		q.active[kind]++
		l.worker = active
		return true
	}
	l.worker, l.waiting = idle, true
	q.waiting[k.kind()] = append(q.waiting[k.kind()], k)
	return false
}

// unrun puts a head that no longer runs back among the waiting.
func (q *queues) unrun(e *entry) {
	if e.durable {
		q.move(e, parked, false)
	} else {
		q.move(e, fetched, false)
	}
}

// leave ends the worker of lane k, or keeps it on k if updates came in
// meanwhile; a worker that ends hands its place to the next waiting lane.
func (q *queues) leave(k laneKey) (laneKey, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if l := q.lanes[k]; len(l.entries) > 0 {
		return k, true
	}
	delete(q.lanes, k)
	q.active[k.kind()]--
	next := q.handOver(k.kind())
	if len(next) == 0 {
		return laneKey{}, false
	}
	return next[0], true // this very worker takes it on
}

// handOver starts the next waiting lane of kind if the bound allows; the
// caller holds q.mu.
func (q *queues) handOver(kind int) []laneKey {
	if q.active[kind] >= q.bound || len(q.waiting[kind]) == 0 {
		return nil
	}
	next := q.waiting[kind][0]
	q.waiting[kind] = q.waiting[kind][1:]
	q.lanes[next].worker, q.lanes[next].waiting = active, false
	q.active[kind]++
	return []laneKey{next}
}

// stop ends lane k's worker at shutdown; its updates stay held (parked
// ones in the inbox, the others with Telegram).
func (q *queues) stop(k laneKey, wasActive bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	l := q.lanes[k]
	if wasActive {
		q.active[k.kind()]--
	}
	l.worker = idle
	if len(l.entries) > 0 && l.entries[0].state >= running {
		q.unrun(l.entries[0])
	}
}

func (q *queues) signal() {
	select {
	case q.changed <- struct{}{}:
	default:
	}
}
