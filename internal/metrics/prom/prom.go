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
	"sync"

	vm "github.com/VictoriaMetrics/metrics"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// latencyBuckets (seconds) span a cached reply to the update budget.
var latencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// Sink is a metrics.Sink kept in memory until scraped.
type Sink struct {
	set *vm.Set
	// The library's handle of each series, by series: its own lookup
	// needs the series' text, which would be built on every call.
	counters, histograms, gauges sync.Map
}

var _ metrics.Sink = (*Sink)(nil)

// New is an empty sink.
func New() *Sink {
	vm.ExposeMetadata(true) // # TYPE lines, so parsers know counters from gauges
	return &Sink{set: vm.NewSet()}
}

// text is name{label="value",...}.
func text(s metrics.Series) string {
	name, labels := s.Name, s.LabelList()
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

// handle is the library's handle of sr, made once.
func handle[T any](m *sync.Map, sr metrics.Series, mk func(string) T) T {
	if h, ok := m.Load(sr); ok {
		return h.(T)
	}
	h, _ := m.LoadOrStore(sr, mk(text(sr)))
	return h.(T)
}

// Add implements metrics.Sink.
func (s *Sink) Add(sr metrics.Series, n float64) {
	handle(&s.counters, sr, s.set.GetOrCreateFloatCounter).Add(n)
}

// Observe implements metrics.Sink.
func (s *Sink) Observe(sr metrics.Series, v float64) {
	handle(&s.histograms, sr, func(t string) *vm.PrometheusHistogram {
		return s.set.GetOrCreatePrometheusHistogramExt(t, latencyBuckets)
	}).Update(v)
}

// Set implements metrics.Sink.
func (s *Sink) Set(sr metrics.Series, v float64) {
	handle(&s.gauges, sr, func(t string) *vm.Gauge { return s.set.GetOrCreateGauge(t, nil) }).Set(v)
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
