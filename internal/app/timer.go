package app

import (
	"context"
	"errors"
	"time"
)

// Timer is a moment a module asked to be called back at (Module.OnTimer),
// kept in the store so that it survives restarts, replicas, the migrator
// and backups like the rest of the bot's state.
type Timer struct {
	// Key is the module's own name for the timer (storage key rules, at
	// most MaxTimerKey bytes), taken while the timer is pending, while its
	// callback runs and for Keep after it ran. List finds timers by a
	// prefix of it, so a module puts what it lists by first (a user, a chat).
	Key string
	// ChatID and ThreadID are where the timer belongs: a chat that becomes
	// a supergroup takes its timers along (the engine moves them).
	ChatID   int64
	ThreadID int
	// At is when the timer is due, kept to the second (rounded up). The callback runs
	// at or after At, within a minute of it while the store answers.
	At time.Time
	// Payload is the module's own data, at most MaxTimerPayload bytes.
	Payload []byte
	// Keep is how long the key stays taken after the callback ran (or was
	// given up) or a Cancel cancelled it, at most MaxTimerKeep: a Set under it meanwhile answers
	// with this timer and ErrTimerExists, so work set once per event (an
	// update, a crossing, a day) is set once however often the event is
	// told. Zero frees the key as the timer fires. Past Keep the engine
	// forgets the timer (Cancel says NoTimer).
	Keep time.Duration
	// ID is set by Timers.Set, unique to this timer (random, positive):
	// the id to apply the callback's work once by (ApplyOnce), since a
	// callback may run again (Attempt).
	ID int64
	// Cancelled is set on the timer a Set returns with ErrTimerExists when
	// that timer was cancelled (and is kept for its Keep): it never fires.
	Cancelled bool
	// Attempt is 1 on the first call of OnTimer; more when an earlier call
	// returned an error or its runner died before recording the end.
	Attempt int
}

// Limits of a timer.
const (
	MaxTimerKey     = 256
	MaxTimerPayload = 4 << 10
	// MaxTimerAhead is how far ahead a timer may be set.
	MaxTimerAhead = 400 * 24 * time.Hour
	// MaxTimerKeep is the longest a fired timer's key stays taken.
	MaxTimerKeep = 40 * 24 * time.Hour
)

// CancelOutcome is what Timers.Cancel decided, once and for good.
type CancelOutcome int

const (
	// Cancelled: the timer will never fire.
	Cancelled CancelOutcome = iota
	// TooLate: the timer is firing: its callback runs (or ran, and its
	// end is not recorded yet).
	TooLate
	// NoTimer: the module has no timer pending under the key: never set,
	// cancelled, or fired (a Keep holds the key, not the timer).
	NoTimer
	// CancelledBefore: an earlier Cancel cancelled the timer, and its Keep
	// still holds the key: it never fires. A caller that applies its own
	// Cancel once (a press delivered again) confirms it again; past the
	// Keep, or without one, the answer is NoTimer.
	CancelledBefore
)

func (o CancelOutcome) String() string {
	return [...]string{"cancelled", "too late", "no timer", "cancelled before"}[o]
}

// Errors of Timers.Set.
var (
	// ErrTimerExists: a timer holds the key (pending, firing, or fired
	// within its Keep); Set returns that timer with it.
	ErrTimerExists = errors.New("timer: a timer holds this key")
	// ErrTimerInvalid: a key, payload or time Set cannot take.
	ErrTimerInvalid = errors.New("timer: invalid")
)

// Timers is a module's timers (Deps.Timers). Each is fired once: of the
// callback's run and a Cancel, exactly one wins, decided in the store.
type Timers interface {
	// Set schedules t (its Key, ChatID, ThreadID, At, Payload and Keep; At
	// in the past is due at once) and returns it with its ID. Under a key
	// a timer holds (pending, firing, or fired within its Keep) it sets
	// nothing and returns that timer (its Key, ID, At, Payload) with
	// ErrTimerExists: a caller told the same event again learns what the
	// first telling set.
	Set(ctx context.Context, t Timer) (Timer, error)
	// SetAfter is Set with At = now + d.
	SetAfter(ctx context.Context, d time.Duration, t Timer) (Timer, error)
	// List returns the pending timers whose Key starts with prefix, by Key.
	// One whose callback is running may still be listed.
	List(ctx context.Context, prefix string) ([]Timer, error)
	// Keys returns the keys of the pending timers whose Key starts with
	// prefix, sorted, in one read (a per-user limit counts them). A key a
	// failed Set left, one firing, or one fired within its Keep may be
	// among them.
	Keys(ctx context.Context, prefix string) ([]string, error)
	// Cancel decides the timer under key: Cancelled means it never fires;
	// TooLate means its callback runs; CancelledBefore means an earlier
	// Cancel decided it, within its Keep; NoTimer means none is pending
	// (none set, it fired, or its Keep is over).
	Cancel(ctx context.Context, key string) (CancelOutcome, error)
}

// Bounds of a callback's run: OnTimer gets TimerRunTimeout; a run that
// recorded no end after TimerStale belongs to a runner that died, and the
// timer is fired again.
const (
	TimerRunTimeout = 20 * time.Second
	TimerStale      = 2 * time.Minute
)
