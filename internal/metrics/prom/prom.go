// Package prom keeps the metric set for Prometheus to scrape (the container's
// GET /metrics), on VictoriaMetrics/metrics: it writes the Prometheus text
// format with three small dependencies and no registry boilerplate, and adds
// the Go runtime and process metrics; client_golang would have brought
// protobuf and a larger binary for the same text.
package prom

import (
	"bytes"
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
		var b bytes.Buffer
		s.set.WritePrometheus(&b)
		vm.WriteProcessMetrics(&b)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_, _ = w.Write(annotate(b.Bytes()))
	})
}

// withoutSum are the library's Go runtime histograms: it writes them with
// no _sum and _count (the runtime keeps no sum, and the library will not
// guess one), which the text format requires of a histogram, so they are
// left out. go_gc_duration_seconds still measures GC pauses.
var withoutSum = map[string]bool{"go_sched_latencies_seconds": true, "go_gc_pauses_seconds": true}

// annotate fills each family's "# HELP name" line, which the library
// leaves without text, and drops the families in withoutSum. The library
// starts every family with its # HELP line.
func annotate(text []byte) []byte {
	out := make([]byte, 0, len(text)+len(text)/4)
	skip := false
	for line := range bytes.Lines(text) {
		if rest, ok := bytes.CutPrefix(line, []byte("# HELP ")); ok {
			fields := bytes.Fields(rest)
			if len(fields) == 0 {
				continue // not a family: nothing to describe
			}
			name := fields[0]
			if skip = withoutSum[string(name)]; skip {
				continue
			}
			if h := help(string(name)); h != "" && len(fields) == 1 {
				out = append(out, "# HELP "...)
				out = append(out, name...)
				out = append(out, ' ')
				out = append(out, h...)
				out = append(out, '\n')
				continue
			}
		}
		if !skip {
			out = append(out, line...)
		}
	}
	return out
}

func help(name string) string {
	if h, ok := metrics.Help[name]; ok {
		return h
	}
	return runtimeHelp[name]
}
