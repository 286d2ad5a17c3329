package testenv

import (
	"testing"
	"time"
)

// Side is one of two things SideBySide compares: its name labels the
// metrics, Run does one operation.
type Side struct {
	Name string
	Run  func() error
}

// SideBySide times a and b doing the same work, interleaved: each
// iteration runs both, alternating which goes first, so drift (a shared
// test server's cache and GC, the fake's growing call log, the other core's
// load) weighs on both alike. Two sub-benchmarks run one after the other
// could not tell a 5% difference from the order they ran in. It reports
// each one's time per operation and a's time over b's as "ratio".
func SideBySide(tb *testing.B, a, b Side) {
	tb.Helper()
	var ta, tbb time.Duration
	timed := func(f func() error) time.Duration {
		start := time.Now()
		if err := f(); err != nil {
			tb.Fatal(err)
		}
		return time.Since(start)
	}
	n := 0
	for tb.Loop() {
		if n%2 == 0 {
			ta += timed(a.Run)
			tbb += timed(b.Run)
		} else {
			tbb += timed(b.Run)
			ta += timed(a.Run)
		}
		n++
	}
	tb.ReportMetric(float64(ta.Nanoseconds())/float64(n), a.Name+"-ns/op")
	tb.ReportMetric(float64(tbb.Nanoseconds())/float64(n), b.Name+"-ns/op")
	tb.ReportMetric(float64(ta)/float64(tbb), "ratio")
}
