package backendtest

import (
	"testing"
	"time"
)

// SideBySide times the provider's operation and the raw driver's doing the
// same, interleaved: each iteration runs both, alternating which goes
// first, so drift in the shared test server (its cache, its GC, the other
// core's load) weighs on both alike. Two sub-benchmarks run one after the
// other could not tell a 5% difference from the order they ran in. It
// reports each one's time per operation and their ratio.
func SideBySide(b *testing.B, provider, raw func() error) {
	b.Helper()
	var ours, theirs time.Duration
	timed := func(f func() error) time.Duration {
		start := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			ours += timed(provider)
			theirs += timed(raw)
		} else {
			theirs += timed(raw)
			ours += timed(provider)
		}
		n++
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(n), "provider-ns/op")
	b.ReportMetric(float64(theirs.Nanoseconds())/float64(n), "raw-ns/op")
	b.ReportMetric(float64(ours)/float64(theirs), "ratio")
}
