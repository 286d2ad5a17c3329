package metered_test

import (
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

// Counting a provider's calls does not change whether they stay in the
// process: the core decides from it whether to overlap its writes.
func TestACountedProviderIsInProcessWhenTheOneItCountsIs(t *testing.T) {
	m := metrics.New(nopSink{})
	for _, c := range []struct {
		name string
		p    storage.KVProvider
		want bool
	}{
		{"memory", memory.New(), true},
		{"a network store", struct{ storage.KVProvider }{memory.New()}, false},
	} {
		if got := storage.IsInProcess(metered.Wrap(c.p, "memory", m)); got != c.want {
			t.Errorf("%s counted: IsInProcess = %v, want %v", c.name, got, c.want)
		}
	}
}
