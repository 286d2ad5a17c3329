package sim

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/migrate"
)

// preflight is the migrator's clock check before the move's copy and
// mirror: the operator's machine has drifted now and then (one move in
// four, by 3 s to 5 min, drawn from a stream of its own), and on a store
// with a server the check must refuse, naming it; the operator sets the
// clock right (NTP) and the check then passes. An embedded store has no
// server clock to compare.
func (l *life) preflight(sides ...Backend) {
	ctx := context.Background()
	r := l.op.rc
	var drift time.Duration // drawn on every store: the same life draws the same
	if r.IntN(4) == 0 {
		drift = 3*time.Second + time.Duration(r.Int64N(int64(5*time.Minute)))
		if r.IntN(2) == 0 {
			drift = -drift
		}
	}
	var clocks []migrate.ServerClock
	for _, b := range sides {
		if c, ok := migrate.ClockOf(b.Name, b.KVProvider); ok {
			clocks = append(clocks, c)
		}
	}
	if len(clocks) == 0 {
		return
	}
	if drift != 0 {
		skewed := func() time.Time { return time.Now().Add(drift) }
		_, err := migrate.CheckClocks(ctx, skewed, migrate.DefaultMaxSkew, clocks)
		if !errors.Is(err, migrate.ErrClockSkew) || !strings.Contains(err.Error(), clocks[0].Name) {
			l.fail("operator", "the pre-flight with the migrator's clock %s off: it must refuse naming %s; it said %v", drift, clocks[0].Name, err)
		}
		// Not in the digest: a store without a server has no such line.
		l.hist.note("  pre-flight refused a clock %s off; set right", drift.Round(time.Second))
		l.hist.count("clock-refusals", 1)
	}
	if _, err := migrate.CheckClocks(ctx, time.Now, migrate.DefaultMaxSkew, clocks); err != nil {
		l.fail("operator", "the pre-flight with the clocks right: %v", err)
	}
}
