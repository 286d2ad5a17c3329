package poller

import (
	"cmp"
	"container/heap"
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
	fetched time.Time // when it was admitted: it settles from then (see settle)
}

// queues is the poller's in-memory view of the backlog: every held update,
// by lane, and which lanes have a worker. The inbox is its durable half.
type queues struct {
	mu         sync.Mutex
	lanes      map[laneKey]*lane
	held       map[int64]*entry
	unparked   map[int64]*entry // held and not durable: the offset stays at the oldest
	redelivers map[int64]bool   // parked ids Telegram still has: durable when fetched again
	maxSeen    int64
	active     [2]int       // lanes with a worker, of each kind (see laneKey.kind)
	waiting    [2][]laneKey // lanes with updates and no worker (the bound was reached)
	bound      int
	memory     int // bodies kept per lane
	changed    chan struct{}

	count   [nStates]int
	publish func(state string, n int)

	now   func() time.Time
	ids   idHeap    // held ids, the oldest first (handled ones pruned lazily)
	since time.Time // the last progress on the oldest held update
}

func newQueues(bound, memory int, now func() time.Time, publish func(string, int)) *queues {
	return &queues{
		lanes: map[laneKey]*lane{}, held: map[int64]*entry{}, unparked: map[int64]*entry{},
		redelivers: map[int64]bool{}, bound: max(bound, 1), memory: max(memory, 1),
		changed: make(chan struct{}, 1), now: now, publish: publish,
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

// unconfirmed is how many held updates are not durable yet.
func (q *queues) unconfirmed() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.unparked)
}

// recover queues the parked updates a previous run left, before anything
// fetched. Those from first on are still Telegram's (it has not been told
// of them): they come again, in order with the rest, so they wait for that.
func (q *queues) recover(items []heldItem, first int64) []laneKey {
	q.mu.Lock()
	defer q.mu.Unlock()
	var start []laneKey
	for _, it := range items {
		if it.id >= first {
			q.redelivers[it.id] = true
			continue
		}
		if q.held[it.id] != nil {
			continue
		}
		e := &entry{id: it.id, lane: it.lane, durable: true, state: parked}
		start = q.hold(e, start)
	}
	return start
}

// admit holds the updates not seen before, in id order, and returns the
// lanes that need a worker started.
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
		e := &entry{id: u.ID, lane: laneOf(u), u: u, state: fetched, fetched: time.Now()}
		if q.redelivers[u.ID] {
			delete(q.redelivers, u.ID)
			e.durable, e.state = true, parked
		}
		start = q.hold(e, start)
	}
	return start
}

// hold adds e to its lane and to start if the lane needs a worker; the
// caller holds q.mu.
func (q *queues) hold(e *entry, start []laneKey) []laneKey {
	if len(q.held) == 0 {
		q.since = q.now()
	}
	q.held[e.id] = e
	heap.Push(&q.ids, e.id)
	if !e.durable {
		q.unparked[e.id] = e
	}
	q.move(e, e.state, true)
	l := q.lanes[e.lane]
	if l == nil {
		l = &lane{}
		q.lanes[e.lane] = l
	}
	e.excess = len(l.entries) >= q.memory
	l.entries = append(l.entries, e)
	if l.worker != idle || l.waiting {
		return start
	}
	kind := e.lane.kind()
	if q.active[kind] < q.bound {
		q.active[kind]++
		l.worker = active
		return append(start, e.lane)
	}
	l.waiting = true
	q.waiting[kind] = append(q.waiting[kind], e.lane)
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
	l := q.lanes[k]
	l.entries = l.entries[1:]
	l.failures = 0
	e.done = true
	q.handled(e.id)
	delete(q.unparked, e.id)
	q.count[e.state]--
	q.report(e.state)
	drop = e.durable && !e.parking
	q.mu.Unlock()
	q.signal()
	return drop
}
