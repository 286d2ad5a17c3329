package backup

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress rewrites one line on a terminal while a snapshot runs: items
// (a walk) or bytes of a known total (the file's copy).
type progress struct {
	w           io.Writer // nil: silent
	every       time.Duration
	start, last time.Time
	total, n    int64
	unit        string
}

func newProgress(w io.Writer, every time.Duration, total int64) *progress {
	now := time.Now()
	unit := "items"
	if total > 0 {
		unit = "bytes"
	}
	return &progress{w: w, every: every, start: now, last: now, total: total, unit: unit}
}

// IsTerminal reports whether f is a terminal: progress is for people.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) items(n int64) {
	p.n = n
	if p.w == nil || n%256 != 0 { // time.Now per item would cost more than the item
		return
	}
	p.maybe()
}

func (p *progress) maybe() {
	if now := time.Now(); now.Sub(p.last) >= p.every {
		p.last = now
		p.print(now)
	}
}

func (p *progress) print(now time.Time) {
	rate := float64(p.n) / max(now.Sub(p.start).Seconds(), 1e-9)
	if p.total > 0 {
		fmt.Fprintf(p.w, "\rbackup: %.1f of %.1f MB (%.0f MB/s)   ", mb(p.n), mb(p.total), rate/1e6)
		return
	}
	fmt.Fprintf(p.w, "\rbackup: %d items (%.0f items/s)   ", p.n, rate)
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// done prints the last figures and ends the line, if it printed any.
func (p *progress) done() {
	if p.w != nil && p.last != p.start {
		p.print(time.Now())
		fmt.Fprintln(p.w)
	}
}

// counting passes writes on to w, counting their bytes.
func (p *progress) counting(w io.Writer) io.Writer {
	if p.w == nil {
		return w
	}
	return countingWriter{w, p}
}

type countingWriter struct {
	w io.Writer
	p *progress
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.p.n += int64(n)
	c.p.maybe()
	return n, err
}
