package poller

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// state is where a held update is; the metrics count the backlog by it.
type state int

const (
	fetched  state = iota // in memory only: Telegram keeps it too (the offset has not passed it)
	parked                // in the inbox: the offset may pass it
	running               // its handler runs
	retrying              // it failed and waits out a back-off or flood wait
	nStates
)

var stateNames = [nStates]string{metrics.BacklogFetched, metrics.BacklogParked, metrics.BacklogRunning, metrics.BacklogRetrying}

// entry is one held update: fetched or parked, not handled yet.
type entry struct {
	id      int64
	lane    laneKey
	u       *models.Update // nil: its body is only in the inbox (memory is bounded per lane)
	state   state
	durable bool // written to the inbox
	parking bool // being written to it
	excess  bool // admitted past its lane's memory bound: the body goes once durable
	done    bool
}

// queues is the poller's in-memory view of the backlog: every held update,
// by lane. The inbox is its durable half.
type queues struct {
	mu       sync.Mutex
	lanes    map[laneKey]*lane
	held     map[int64]*entry
	unparked map[int64]*entry // held and not durable: the offset stays at the oldest
	inInbox  map[int64]bool   // parked by a run before and still Telegram's: durable when fetched again
	maxSeen  int64
	memory   int // bodies kept per lane

	count   [nStates]int
	publish func(state string, n int)

	oldest int64     // the oldest held update Health saw (see stalled)
	since  time.Time // when it saw it first
}

func newQueues(memory int, publish func(string, int)) *queues {
	return &queues{
		lanes: map[laneKey]*lane{}, held: map[int64]*entry{}, unparked: map[int64]*entry{}, inInbox: map[int64]bool{},
		memory: max(memory, 1), publish: publish,
	}
}

// offset confirms every update below it: the oldest one not durable, or
// past the newest seen.
func (q *queues) offset() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	off := q.maxSeen + 1
	for id := range q.unparked {
		off = min(off, id)
	}
	return off
}

// recover queues the parked updates a previous run left, before anything
// fetched, and returns the lanes to start. Those from first on are still
// Telegram's (it was not told of them): they come again, in order with
// the rest, and are queued then, as parked already: written again or not,
// their item is deleted once they are done.
func (q *queues) recover(items []heldItem, first int64) []laneKey {
	q.mu.Lock()
	defer q.mu.Unlock()
	var start []laneKey
	for _, it := range items {
		if it.id < first {
			start = q.hold(&entry{id: it.id, lane: it.lane, durable: true, state: parked}, start)
		} else {
			q.inInbox[it.id] = true
		}
	}
	return start
}

// admit holds the updates not seen before, in id order, and returns the
// lanes to start.
func (q *queues) admit(updates []*models.Update) []laneKey {
	slices.SortFunc(updates, func(a, b *models.Update) int { return cmp.Compare(a.ID, b.ID) })
	q.mu.Lock()
	defer q.mu.Unlock()
	var start []laneKey
	for _, u := range updates {
		if q.held[u.ID] != nil || u.ID <= q.maxSeen {
			continue // held already, or handled
		}
		q.maxSeen = u.ID
		e := &entry{id: u.ID, lane: laneOf(u), u: u, state: fetched}
		if q.inInbox[u.ID] {
			delete(q.inInbox, u.ID)
			e.durable, e.state = true, parked
		}
		start = q.hold(e, start)
	}
	return start
}

// hold adds e to its lane, and the lane to start if it is new; the caller
// holds q.mu.
func (q *queues) hold(e *entry, start []laneKey) []laneKey {
	q.held[e.id] = e
	if !e.durable {
		q.unparked[e.id] = e
	}
	q.move(e, e.state, true)
	l := q.lanes[e.lane]
	if l == nil {
		l = &lane{}
		q.lanes[e.lane] = l
		start = append(start, e.lane)
	}
	e.excess = len(l.entries) >= q.memory
	l.entries = append(l.entries, e)
	return start
}

// move puts e in state to (newly held: counted for the first time); the
// caller holds q.mu.
func (q *queues) move(e *entry, to state, added bool) {
	if !added {
		q.count[e.state]--
		q.report(e.state)
	}
	e.state = to
	q.count[to]++
	q.report(to)
}

func (q *queues) report(s state) {
	if q.publish != nil {
		q.publish(stateNames[s], q.count[s])
	}
}

// done forgets lane k's head e, handled. drop says that its inbox item is
// the caller's to delete (one being written is the parker's).
func (q *queues) done(k laneKey, e *entry) (drop bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	l := q.lanes[k]
	l.entries = l.entries[1:]
	l.failures = 0
	e.done = true
	delete(q.held, e.id)
	delete(q.unparked, e.id)
	q.count[e.state]--
	q.report(e.state)
	return e.durable && !e.parking
}
