package timer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// TickStats says what a tick did.
type TickStats struct {
	Hours  int  // due hours listed
	Due    int  // timers due by now in them, Forgot included
	Forgot int  // kept timers whose Keep ended, forgotten
	Fired  int  // callbacks run to success
	Waits  int  // due, left for a later tick
	Errors int  // store errors
	Busy   bool // another tick runs (any process): this one did nothing
}

// Tick fires every timer due by now: it lists each hour from the cursor
// to the current one, takes at most perTick of what is due, fires them on
// workers, and moves the cursor to the first hour still holding a due
// timer (never past the previous hour, so that a Set whose clock lags
// still files where a tick looks).
//
// One tick runs at a time across processes (the tick lease): a tick that
// finds another running returns Busy at once.
func (e *Engine) Tick(ctx context.Context) (TickStats, error) {
	now := e.now().UTC()
	var st TickStats
	lease, err := e.takeLease(ctx, now)
	if err != nil || lease == nil {
		st.Busy = err == nil
		return st, err
	}
	defer e.dropLease(ctx, lease)
	cur, found, err := e.cursor(ctx, now)
	if err != nil {
		return st, err
	}
	last := earlier(hourOf(now), cur.Add(time.Duration(e.hoursPerTick-1)*time.Hour))
	type due struct {
		key  string
		hour time.Time
	}
	var todo []due
	for _, h := range hoursToList(cur, last, now) {
		keys, err := e.store.List(ctx, hourPrefix(h))
		if err != nil {
			return st, fmt.Errorf("timers: list %s: %w", h.Format(hourLayout), err)
		}
		st.Hours++
		for _, k := range keys {
			if at, ok := dueOf(k); ok && !at.After(now) {
				todo = append(todo, due{k, h})
			}
		}
	}
	st.Due = len(todo)
	left := map[time.Time]bool{}
	if len(todo) > e.perTick {
		st.Waits = len(todo) - e.perTick
		for _, d := range todo[e.perTick:] {
			left[d.hour] = true
		}
		todo = todo[:e.perTick]
	}
	outcomes := make([]fired, len(todo))
	errs := make([]error, len(todo))
	// Started in key order, the longest due first, at most workers at once.
	var g errgroup.Group
	g.SetLimit(e.workers)
	for i := range todo {
		g.Go(func() error {
			if ctx.Err() != nil { // the budget is over: the rest wait for the next tick
				outcomes[i] = firedLeft
				return nil
			}
			outcomes[i], errs[i] = e.fire(ctx, todo[i].key)
			return nil
		})
	}
	_ = g.Wait() // each timer's error is kept in errs
	for i, o := range outcomes {
		switch {
		case errs[i] != nil && o == firedNone:
			st.Errors++ // damaged: no retry reads it, so its hour is not held
		case errs[i] != nil:
			st.Errors++
			st.Waits++
			left[todo[i].hour] = true
		case o == firedOK:
			st.Fired++
		case o == firedKept:
			st.Forgot++
		case o == firedLeft:
			st.Waits++
			left[todo[i].hour] = true
		}
	}
	from := last.Add(time.Hour)
	for h := range left {
		from = earlier(from, h)
	}
	from = earlier(from, hourOf(now).Add(-time.Hour))
	if !found || !from.Equal(cur) {
		if err := e.store.Put(ctx, cursorKey, []byte(from.Format(hourLayout))); err != nil {
			errs = append(errs, fmt.Errorf("timers: move the cursor: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return st, fmt.Errorf("timers: %d of %d due failed: %w", st.Errors, st.Due, err)
	}
	return st, nil
}

// hoursToList are the hours from the cursor to last and, when a long
// catch-up stops short of them, the previous and the current hour: what is
// due now fires now, whatever is left from long ago.
func hoursToList(cur, last, now time.Time) []time.Time {
	var hs []time.Time
	for h := cur; !h.After(last); h = h.Add(time.Hour) {
		hs = append(hs, h)
	}
	for _, h := range []time.Time{hourOf(now).Add(-time.Hour), hourOf(now)} {
		if h.After(last) {
			hs = append(hs, h)
		}
	}
	return hs
}

// cursor is the first hour that may hold a due timer. A store without
// one (never ticked) starts from its earliest timer, read once by a List
// of them all.
func (e *Engine) cursor(ctx context.Context, now time.Time) (h time.Time, found bool, err error) {
	prev := hourOf(now).Add(-time.Hour)
	v, err := e.store.Get(ctx, cursorKey)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return e.cursorFromScratch(ctx, prev)
	case err != nil:
		return h, false, fmt.Errorf("timers: read the cursor: %w", err)
	}
	if h, err = time.Parse(hourLayout, string(v)); err != nil {
		e.log.Error("timers: the cursor is unreadable; starting from the earliest timer", "value", string(v))
		return e.cursorFromScratch(ctx, prev)
	}
	return earlier(h, prev), true, nil
}

func (e *Engine) cursorFromScratch(ctx context.Context, prev time.Time) (time.Time, bool, error) {
	keys, err := e.store.List(ctx, duePrefix)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("timers: list them all: %w", err)
	}
	for _, k := range keys { // sorted: the first readable is the earliest
		if at, ok := dueOf(k); ok {
			return earlier(hourOf(at), prev), false, nil
		}
	}
	return prev, false, nil
}
