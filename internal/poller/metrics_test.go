package poller_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// gauges is a metrics sink that keeps the last value of each gauge.
type gauges struct {
	mu sync.Mutex
	v  map[string]float64
}

func (g *gauges) Add(metrics.Series, float64)     {}
func (g *gauges) Observe(metrics.Series, float64) {}
func (g *gauges) Set(s metrics.Series, v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.v[s.Name+"/"+s.Labels[0].Value] = v
}

func (g *gauges) backlog() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, st := range []string{metrics.BacklogFetched, metrics.BacklogParked, metrics.BacklogRunning, metrics.BacklogRetrying} {
		out = append(out, fmt.Sprintf("%s=%g", st, g.v[metrics.PollerBacklog+"/"+st]))
	}
	return strings.Join(out, " ")
}

func TestTheMetricsShowTheBacklogByState(t *testing.T) {
	srv := telegramtest.New(t)
	g := &gauges{v: map[string]float64{}}
	h := newHandled(1)
	start(t, poller.New(client(t, srv), store(), h.handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
		poller.WithMetrics(metrics.New(g))))
	pushN(srv, 1, "x", 5)
	check := func(want string) {
		t.Helper()
		if err := testenv.Eventually(10*time.Second, func() error {
			if got := g.backlog(); got != want {
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
