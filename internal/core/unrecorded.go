package core

import (
	"context"
	"fmt"
	"sync"
)

// unrecordedEnd is how a run of an update ended, kept by the process that
// ran it when its record did not land and the update was not acknowledged
// (it failed, or owes hooks): the record still holds the run's claim.
type unrecordedEnd struct {
	claimed claimedRecord
	end     runEnd
	owed    []string // hooks owed once the update is done (see owe)
}

// unrecordedEnds are this process's runs whose end is not recorded yet.
// The update's redelivery, when it comes to this process, records the end
// first (settle), and so finds the update done, owing its hooks, or
// failed with its press answered, instead of finding the claim running
// and, once it is stale, running the update again: a second reply. A
// redelivery that goes to another process still meets the stale mark.
type unrecordedEnds struct {
	mu sync.Mutex
	m  map[int64]unrecordedEnd
}

// maxUnrecorded bounds the ends kept: one forgotten falls back to the
// stale mark. An end is kept only while the store failed its record.
const maxUnrecorded = 1024

func (u *unrecordedEnds) put(id int64, e unrecordedEnd) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.m == nil {
		u.m = map[int64]unrecordedEnd{}
	}
	if _, had := u.m[id]; !had && len(u.m) >= maxUnrecorded {
		for k := range u.m { // any one
			delete(u.m, k)
			break
		}
	}
	u.m[id] = e
}

func (u *unrecordedEnds) take(id int64) (unrecordedEnd, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e, ok := u.m[id]
	delete(u.m, id)
	return e, ok
}

// settle records the end of an earlier run of update id by this process
// that its record missed, if there is one. Nothing is kept for most
// updates: no store round trip.
func (a *App) settle(ctx context.Context, id int64) error {
	e, ok := a.unrecorded.take(id)
	if !ok {
		return nil
	}
	err := a.finish(ctx, id, e.claimed, e.end)
	if err == nil && len(e.owed) > 0 {
		err = a.markOwed(ctx, id, e.claimed.key, e.owed)
	}
	if err != nil {
		a.unrecorded.put(id, e)
		return fmt.Errorf("update %d: recording its earlier run's end: %w", id, err)
	}
	return nil
}
