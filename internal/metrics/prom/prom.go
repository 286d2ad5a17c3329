// Package prom keeps the metric set for Prometheus to scrape (the container's
// GET /metrics), on VictoriaMetrics/metrics: it writes the Prometheus text
// format with three small dependencies and no registry boilerplate, and adds
// the Go runtime and process metrics; client_golang would have brought
// protobuf and a larger binary for the same text.
package prom

import (
	"net/http"
	"strconv"
	"strings"

	vm "github.com/VictoriaMetrics/metrics"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// latencyBuckets (seconds) span a cached reply to the update budget.
var latencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// Sink is a metrics.Sink kept in memory until scraped.
type Sink struct{ set *vm.Set }

var _ metrics.Sink = (*Sink)(nil)

// New is an empty sink.
func New() *Sink {
	vm.ExposeMetadata(true) // # TYPE lines, so parsers know counters from gauges
	return &Sink{set: vm.NewSet()}
}

// series is name{label="value",...}.
func series(name string, labels []metrics.Label) string {
	if len(labels) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i, l := range labels {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(l.Value))
	}
	b.WriteByte('}')
	return b.String()
}

// Add implements metrics.Sink.
func (s *Sink) Add(name string, labels []metrics.Label, n float64) {
	s.set.GetOrCreateFloatCounter(series(name, labels)).Add(n)
}

// Observe implements metrics.Sink.
func (s *Sink) Observe(name string, labels []metrics.Label, v float64) {
	s.set.GetOrCreatePrometheusHistogramExt(series(name, labels), latencyBuckets).Update(v)
}

// Set implements metrics.Sink.
func (s *Sink) Set(name string, labels []metrics.Label, v float64) {
	s.set.GetOrCreateGauge(series(name, labels), nil).Set(v)
}

// Handler serves the metric set with the Go runtime and process metrics,
// in the Prometheus text format.
func (s *Sink) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		s.set.WritePrometheus(w)
		vm.WriteProcessMetrics(w)
	})
}
