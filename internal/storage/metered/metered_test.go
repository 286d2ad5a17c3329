package metered_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/metered"
)

type nopSink struct{}

func (nopSink) Add(metrics.Series, float64)     {}
func (nopSink) Observe(metrics.Series, float64) {}
func (nopSink) Set(metrics.Series, float64)     {}

// recording keeps every count added, by series.
type recording struct {
	nopSink
	mu    sync.Mutex
	added map[metrics.Series]float64
}

func (r *recording) Add(s metrics.Series, v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.added[s] += v
}

func (r *recording) count(op, outcome string) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	for s, v := range r.added {
		l := s.LabelList()
		if s.Name == metrics.StoreOps && l[1].Value == op && l[2].Value == outcome {
			return v
		}
	}
	return 0
}

// A conditional delete is counted as its own operation, "cad", with the
// outcome it had: a lost one is a conflict, as a lost swap is.
func TestAConditionalDeleteIsCountedAsCadByOutcome(t *testing.T) {
	rec := &recording{added: map[metrics.Series]float64{}}
	s := metered.Wrap(memory.New(), "memory", metrics.New(rec)).For("mod")
	ctx := t.Context()
	if err := s.Put(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := s.CompareAndDelete(ctx, "k", []byte("other")); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("CompareAndDelete(other) = %v, want ErrConflict", err)
	}
	if err := s.CompareAndDelete(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		outcome string
		want    float64
	}{{metrics.OK, 1}, {metrics.Conflict, 1}, {metrics.Error, 0}} {
		if got := rec.count("cad", c.outcome); got != c.want {
			t.Errorf("cad %s counted %v times, want %v", c.outcome, got, c.want)
		}
	}
	if got := rec.count("delete", metrics.OK); got != 0 {
		t.Errorf("a conditional delete was also counted as a delete (%v)", got)
	}
}

// reporting is a provider with something to report on its health.
type reporting struct {
	storage.KVProvider
	err error
}

func (r reporting) Healthy(context.Context) error { return r.err }

// Counting a provider's calls passes on what it reports of its health (a
// full disk under the embedded file); one with no report is healthy.
func TestACountedProviderReportsTheHealthOfTheOneItCounts(t *testing.T) {
	m := metrics.New(nopSink{})
	full := errors.New("no space left on device")
	for _, c := range []struct {
		name string
		p    storage.KVProvider
		want error
	}{
		{"one reporting a failure", reporting{memory.New(), full}, full},
		{"one reporting none", reporting{memory.New(), nil}, nil},
		{"one with no report", memory.New(), nil},
	} {
		if got := storage.Healthy(t.Context(), metered.Wrap(c.p, "bolt", m)); !errors.Is(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("%s, counted: Healthy = %v, want %v", c.name, got, c.want)
		}
	}
}
