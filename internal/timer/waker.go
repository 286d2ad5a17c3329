package timer

import (
	"context"
	"math"
	"time"
)

// WakePoll is how often a sleeping Wake reads the due index again, so that
// a timer another process set (a second replica) is seen within it: a
// timer set in this process wakes it at once.
const WakePoll = 5 * time.Second

// Wake runs tick whenever a timer falls due, to the second, until ctx
// ends: it reads the earliest due second (NextDue), sleeps until then, or
// for WakePoll at most, or until a Set in this process files an earlier
// one, and ticks. It ticks at most once a second; a timer the tick left
// (failed, busy, waiting for its module) is the minute's tick's, which
// stays the safety net. A tick that did not run (tick says so: another
// held the tick lease) is tried again a second later. Replicas that wake
// together each try: one ticks, and the claim per timer fires each once.
func (e *Engine) Wake(ctx context.Context, tick func() (ran bool)) {
	last := e.now().UTC().Truncate(time.Second).Add(-time.Second) // the last second ticked
	notBefore := last.Add(time.Second)                            // the next try
	for ctx.Err() == nil {
		// Any Set from here on pokes: the read below may miss it.
		e.wakeAt.Store(math.MaxInt64)
		// From the last second ticked: a timer set in it after its tick is
		// due too (one the tick left waits a second, then is the minute's).
		next, ok, err := e.NextDue(ctx, last)
		if err != nil && ctx.Err() == nil {
			e.log.Warn("timers: the next due timer is not known; read again soon", "err", err)
		}
		now := e.now()
		at := now.Add(WakePoll)
		if ok && err == nil {
			next = later(next, notBefore)
			at = earlier(at, next)
		}
		e.wakeAt.Store(at.UnixNano())
		if d := at.Sub(now); d > 0 {
			select {
			case <-ctx.Done():
				return
			case <-e.poke:
				continue // an earlier timer: read again
			case <-e.after(d):
			}
		}
		if ok && err == nil && !e.now().Before(next) {
			now := e.now().UTC()
			if tick() {
				last, notBefore = now.Truncate(time.Second), now.Truncate(time.Second).Add(time.Second)
			} else {
				notBefore = now.Add(time.Second)
			}
		}
	}
}

// woken tells a sleeping Wake of a timer filed under at, when that is
// before its wake-up.
func (e *Engine) woken(at time.Time) {
	if at.UnixNano() >= e.wakeAt.Load() {
		return
	}
	select {
	case e.poke <- struct{}{}:
	default: // a poke is already pending
	}
}
