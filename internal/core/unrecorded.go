package core

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// unrecordedEnd is how a run of an update ended, kept by the process that
// ran it when its record did not land and the update was not acknowledged
// (it failed, or owes hooks): the record still holds the run's claim.
type unrecordedEnd struct {
	claimed claimedRecord
	end     runEnd
	tries   int // settles that failed
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
	switch {
	case err == nil:
		return nil
	case errors.Is(err, storage.ErrNotFound):
		// The slot is gone (deleted under it): no end to record; the
		// claim runs the update as new.
		return nil
	case e.tries+1 >= dedupMaxAttempts:
		// Forgotten: the redelivery meets the stale mark, as one to
		// another process does.
		return nil
	}
	e.tries++
	a.unrecorded.put(id, e)
	return fmt.Errorf("update %d: recording its earlier run's end: %w", id, err)
}
