// Package emf keeps the metric set of one Lambda invocation and writes it as
// CloudWatch Embedded Metric Format: one JSON log line per flush with an
// "_aws" block, which CloudWatch Logs turns into metrics with no agent, no
// API call and no dependency. Flush runs before the invocation returns, as
// Lambda may freeze the process right after.
//
// A series' labels become part of its EMF metric name
// ("updates.message.handled"), so that one object carries every series of
// the flush under the one dimension set (the function's name): EMF gives
// each dimension a single value per object.
package emf

import (
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/logging"
	"github.com/miti99bot/miti99bot/internal/metrics"
)

// Limits of one EMF object (CloudWatch's): metrics per directive and
// values per metric.
const (
	maxMetrics = 100
	maxValues  = 100
)

// Sink is a metrics.Sink that buffers until Flush.
type Sink struct {
	namespace string
	dims      map[string]string
	now       func() time.Time

	mu     sync.Mutex
	values map[metrics.Series]*series
}

type series struct {
	unit   string
	sum    float64   // counters and gauges
	values []float64 // histograms
	hist   bool
}

var _ metrics.Sink = (*Sink)(nil)

// New is a sink for namespace whose every metric carries dims (e.g.
// {"function": "miti99bot"}).
func New(namespace string, dims map[string]string) *Sink {
	return &Sink{namespace: namespace, dims: dims, now: time.Now, values: map[metrics.Series]*series{}}
}

// Name is the EMF name of a series: the Prometheus name without the
// project prefix and the _total suffix, then each label value.
func Name(s metrics.Series) string {
	n := strings.TrimSuffix(strings.TrimPrefix(s.Name, "miti99bot_"), "_total")
	for _, l := range s.LabelList() {
		n += "." + l.Value
	}
	return n
}

func unit(name string) string {
	if strings.Contains(name, "seconds") {
		return "Seconds"
	}
	return "Count"
}

func (s *Sink) get(sr metrics.Series) *series {
	v, ok := s.values[sr]
	if !ok {
		v = &series{unit: unit(sr.Name)}
		s.values[sr] = v
	}
	return v
}

// Add implements metrics.Sink.
func (s *Sink) Add(sr metrics.Series, n float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.get(sr).sum += n
}

// Observe implements metrics.Sink.
func (s *Sink) Observe(key metrics.Series, v float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr := s.get(key)
	sr.hist = true
	if len(sr.values) < maxValues {
		sr.values = append(sr.values, v)
	}
}

// Set implements metrics.Sink.
func (s *Sink) Set(sr metrics.Series, v float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.get(sr).sum = v
}

type directive struct {
	Namespace  string     `json:"Namespace"`
	Dimensions [][]string `json:"Dimensions"`
	Metrics    []metric   `json:"Metrics"`
}

type metric struct {
	Name string `json:"Name"`
	Unit string `json:"Unit"`
}

// Flush writes what was recorded since the last flush, through log at
// logging.LevelMetrics (so no LOG_LEVEL hides it), and starts again.
// Nothing recorded, nothing written.
func (s *Sink) Flush(ctx context.Context, log *slog.Logger) {
	s.mu.Lock()
	recorded := s.values
	s.values = map[metrics.Series]*series{}
	s.mu.Unlock()
	if len(recorded) == 0 {
		return
	}
	values := make(map[string]*series, len(recorded))
	names := make([]string, 0, len(recorded))
	for sr, v := range recorded {
		n := Name(sr)
		if old, dup := values[n]; dup { // two series, one EMF name: add them up
			old.sum += v.sum
			old.values = append(old.values, v.values...)
			continue
		}
		values[n] = v
		names = append(names, n)
	}
	sort.Strings(names)
	dimKeys := make([]string, 0, len(s.dims))
	for k := range s.dims {
		dimKeys = append(dimKeys, k)
	}
	sort.Strings(dimKeys)
	for start := 0; start < len(names); start += maxMetrics {
		chunk := names[start:min(start+maxMetrics, len(names))]
		d := directive{Namespace: s.namespace, Dimensions: [][]string{dimKeys}}
		attrs := make([]slog.Attr, 0, len(chunk)+len(dimKeys)+1)
		for _, n := range chunk {
			v := values[n]
			d.Metrics = append(d.Metrics, metric{Name: n, Unit: v.unit})
			if v.hist {
				raw, _ := json.Marshal(v.values)
				attrs = append(attrs, slog.Any(n, json.RawMessage(raw)))
			} else {
				attrs = append(attrs, slog.Float64(n, v.sum))
			}
		}
		for _, k := range dimKeys {
			attrs = append(attrs, slog.String(k, s.dims[k]))
		}
		aws, _ := json.Marshal(struct {
			Timestamp         int64       `json:"Timestamp"`
			CloudWatchMetrics []directive `json:"CloudWatchMetrics"`
		}{s.now().UnixMilli(), []directive{d}})
		attrs = append(attrs, slog.Any("_aws", json.RawMessage(aws)))
		log.LogAttrs(ctx, logging.LevelMetrics, "metrics", attrs...)
	}
}
