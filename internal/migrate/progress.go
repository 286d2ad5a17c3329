package migrate

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress prints a line on stderr every interval.
type progress struct {
	w     io.Writer
	every time.Duration
	what  string
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, every time.Duration, what string) *progress {
	now := time.Now()
	return &progress{w: w, every: every, what: what, start: now, last: now}
}

func (p *progress) tick(n int64) {
	if now := time.Now(); now.Sub(p.last) >= p.every {
		p.last = now
		fmt.Fprintf(p.w, "migrate %s: %d items, %.0f items/s\n", p.what, n, float64(n)/now.Sub(p.start).Seconds())
	}
}

func (p *progress) done(n int64) {
	if time.Since(p.start) >= p.every {
		fmt.Fprintf(p.w, "migrate %s: %d items in %s\n", p.what, n, strings.TrimSpace(time.Since(p.start).Round(time.Millisecond).String()))
	}
}
