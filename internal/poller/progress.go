package poller

import (
	"container/heap"
	"time"
)

// The oldest held update is the one every other waits behind in the
// worst case: no progress on it for long means a lane is stuck (a handler
// that never returns, a claim nobody takes over), whatever the others do.

// idHeap is a min-heap of update ids (container/heap).
type idHeap []int64

func (h idHeap) Len() int           { return len(h) }
func (h idHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h idHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *idHeap) Push(x any)        { *h = append(*h, x.(int64)) }
func (h *idHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// stalled is the oldest held update and the last progress on the oldest
// (handling it, or holding the first); ok is false when nothing is held.
func (q *queues) stalled() (id int64, since time.Time, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.prune()
	if q.ids.Len() == 0 {
		return 0, time.Time{}, false
	}
	return q.ids[0], q.since, true
}

// handled forgets a handled id: progress if it was the oldest. The caller
// holds q.mu.
func (q *queues) handled(id int64) {
	q.prune()
	if q.ids.Len() > 0 && q.ids[0] == id {
		q.since = q.now()
	}
	delete(q.held, id)
}

// prune pops the handled ids off the top; the caller holds q.mu.
func (q *queues) prune() {
	for q.ids.Len() > 0 && q.held[q.ids[0]] == nil {
		heap.Pop(&q.ids)
	}
}
