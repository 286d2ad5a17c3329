package metered_test

import (
	"context"
	"errors"
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
