package timer

import (
	"context"
	"fmt"
	"time"
)

// NextDue is the earliest second at or after from that a timer is filed
// under, read from at most two hours of the due index (from's and the
// next): a timer later than that is found by a later read. ok is false
// when none is filed in them.
func (e *Engine) NextDue(ctx context.Context, from time.Time) (at time.Time, ok bool, err error) {
	from = from.UTC().Truncate(time.Second)
	for h := range 2 {
		hour := hourOf(from).Add(time.Duration(h) * time.Hour)
		keys, err := e.store.List(ctx, hourPrefix(hour))
		if err != nil {
			return at, false, fmt.Errorf("timers: list %s: %w", hour.Format(hourLayout), err)
		}
		for _, k := range keys { // sorted: the first at or after from is the earliest
			if due, ok := dueOf(k); ok && !due.Before(from) {
				return due, true, nil
			}
		}
	}
	return at, false, nil
}
