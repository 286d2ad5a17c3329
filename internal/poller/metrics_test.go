package poller_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/metricstest"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// backlog is the poller's backlog gauges in g, by state.
func backlog(g *metricstest.Gauges) string {
	var out []string
	for _, st := range []string{metrics.BacklogFetched, metrics.BacklogParked, metrics.BacklogRunning, metrics.BacklogRetrying} {
		v, _ := g.Get(metrics.PollerBacklog, st)
		out = append(out, fmt.Sprintf("%s=%g", st, v))
	}
	return strings.Join(out, " ")
}

func TestTheMetricsShowTheBacklogByState(t *testing.T) {
	srv := telegramtest.New(t)
	g := &metricstest.Gauges{}
	h := newHandled(1)
	start(t, poller.New(client(t, srv), store(), h.handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
		poller.WithMetrics(metrics.New(g))))
	pushN(srv, 1, "x", 5)
	check := func(want string) {
		t.Helper()
		if err := testenv.Eventually(10*time.Second, func() error {
			if got := backlog(g); got != want {
				return fmt.Errorf("backlog %s, want %s", got, want)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	check("fetched=0 parked=4 running=1 retrying=0")
	h.open(1)
	check("fetched=0 parked=0 running=0 retrying=0")
}
