// Package claim is the one rule by which a process takes a piece of work
// that others may try at the same time: an update (the core's dedup), a
// cron slot, a timer's run (and the timers' tick lease). Each keeps a
// record of the work at a key and swaps it to "running" with CAS to take
// it; what the record may be swapped from is decided here, so they agree
// on when work is finished, when it is someone else's, and when its runner
// is presumed dead. (The polling lease is not such work: it is a role held
// by renewing it, and lapses by its own expiry.)
package claim

import "time"

// State is where a piece of work stands, as its record says.
type State int

const (
	None    State = iota // no record: never taken
	Running              // taken, and its runner has not said how it ended
	Done                 // finished (or given up for good): never taken again
	Failed               // ended without success: free to take again
)

// Verdict is what a claimer may do with the work.
type Verdict int

const (
	Take Verdict = iota // free: swap the record to running
	Busy                // a live runner has it: leave it, it may still fail
	Over                // finished: nothing to do
)

// Judge decides for work in state s, whose record last changed at at
// (unix nanos): a running claim older than stale belongs to a runner that
// died, and is free like a failed one.
func Judge(s State, at int64, now time.Time, stale time.Duration) Verdict {
	switch {
	case s == Done:
		return Over
	case s == Running && now.Sub(time.Unix(0, at)) < stale:
		return Busy
	}
	return Take
}

// Parse reads a state as records name it: running, done and failed (the
// dedup's and the cron slots'), and the push markers' sending, sent and
// refused. Any other name is None: the record says nothing of the work.
func Parse(name string) State {
	switch name {
	case "running", "sending":
		return Running
	case "done", "sent", "refused":
		return Done
	case "failed":
		return Failed
	}
	return None
}
