// Package metricstest is a metrics sink for tests.
package metricstest

import (
	"sync"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// Gauges keeps the last value of each gauge set through it; counters and
// histograms it drops.
type Gauges struct {
	mu  sync.Mutex
	set map[metrics.Series]float64
}

var _ metrics.Sink = (*Gauges)(nil)

func (g *Gauges) Add(metrics.Series, float64)     {}
func (g *Gauges) Observe(metrics.Series, float64) {}

func (g *Gauges) Set(s metrics.Series, v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.set == nil {
		g.set = map[metrics.Series]float64{}
	}
	g.set[s] = v
}

// Get is the gauge name with these label values, and whether it was set.
func (g *Gauges) Get(name string, labelValues ...string) (float64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for s, v := range g.set {
		if s.Name != name || s.N != len(labelValues) {
			continue
		}
		same := true
		for i, l := range s.LabelList() {
			same = same && l.Value == labelValues[i]
		}
		if same {
			return v, true
		}
	}
	return 0, false
}

// Len is how many gauges were set.
func (g *Gauges) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.set)
}
