package poller

import (
	"context"
	"log/slog"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// Option configures New.
type Option func(*Poller)

// WithLongPoll sets getUpdates' timeout (default 50 s).
func WithLongPoll(d time.Duration) Option { return func(p *Poller) { p.timeout = d } }

// WithWait replaces how the poller waits between retries (tests).
func WithWait(f func(ctx context.Context, d time.Duration) error) Option {
	return func(p *Poller) { p.wait = f }
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(p *Poller) { p.log = l } }

// WithMetrics reports the backlog by state into m.
func WithMetrics(m *metrics.Metrics) Option { return func(p *Poller) { p.metrics = m } }

// WithGrace cuts the handlers still running d after the poller is told to
// stop: a handler cut that way fails (its update is not done, and comes
// again after the restart) instead of being abandoned mid-write when the
// process exits. The container sets it inside its shutdown budget.
func WithGrace(d time.Duration) Option { return func(p *Poller) { p.grace = d } }

// WithCutAtOnce cuts the handlers at once, without the grace, when Run's
// context ends with cause: the polling role went to another process, which
// takes over the updates in flight here (see core.Runner).
func WithCutAtOnce(cause error) Option { return func(p *Poller) { p.cutOn = cause } }

// WithClock sets the clock of the health report (tests).
func WithClock(now func() time.Time) Option { return func(p *Poller) { p.now = now } }

// WithLaneMemory sets how many updates one lane keeps in memory (default
// 100); the rest of its backlog waits in the inbox only.
func WithLaneMemory(n int) Option { return func(p *Poller) { p.memory = n } }

// WithStuckAfter sets how long the oldest held update may go without
// progress before Health fails (default 5 minutes).
func WithStuckAfter(d time.Duration) Option { return func(p *Poller) { p.stuck = d } }

// laneMemory bounds the updates of one lane held in memory: a chat that
// floods the bot costs the store, not the heap.
const laneMemory = 100

// stuckAfter: the oldest held update without progress for this long makes
// the poller unhealthy. Its normal worst case is a few minutes: a flood
// wait, a claim of a run that died (see core's stale mark), five failed
// runs with their back-offs.
const stuckAfter = 5 * time.Minute
