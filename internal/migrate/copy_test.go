package migrate_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/cmdmain"
	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// seeded is a memory provider holding n items of namespace "m".
func seeded(t *testing.T, n int) *memory.Provider {
	t.Helper()
	p := memory.New()
	for i := range n {
		if err := p.For("m").Put(t.Context(), fmt.Sprintf("k%03d", i), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// countingWalker tells, on reached, when the walk has read past items.
type countingWalker struct {
	migrate.Source
	past    int
	reached chan struct{}
}

func (c *countingWalker) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	read := 0
	return c.Source.Walk(ctx, func(r storage.Raw) error {
		if read++; read == c.past+1 {
			close(c.reached)
		}
		return fn(r)
	})
}

// gatedLoads holds its first Load until release is closed, fails its
// failAt-th load (0: none), and keeps the first key of each batch loaded.
type gatedLoads struct {
	migrate.Destination
	release chan struct{}
	failAt  int

	mu     sync.Mutex
	loads  int
	starts []string
}

func (g *gatedLoads) Load(ctx context.Context, items []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	g.mu.Lock()
	g.loads++
	n := g.loads
	g.starts = append(g.starts, items[0].Key)
	g.mu.Unlock()
	if n == 1 && g.release != nil {
		<-g.release
	}
	if n == g.failAt {
		return storage.LoadResult{}, errors.New("the target refused the batch")
	}
	return g.Destination.Load(ctx, items, o)
}

func TestTheSourceIsReadWhileABatchLoads(t *testing.T) {
	ctx := testenv.Context(t)
	src := &countingWalker{Source: seeded(t, 30), past: 19, reached: make(chan struct{})}
	dst := &gatedLoads{Destination: memory.New(), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := migrate.Copy(ctx, src, dst, migrate.Options{BatchSize: 10, SkipInvalid: true})
		done <- err
	}()
	select {
	case <-src.reached: // batch 2 read in full while batch 1 is still loading
	case <-ctx.Done():
		t.Fatal("the walk waited for the first batch's load")
	}
	close(dst.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := []string{"k000", "k010", "k020"}; !slices.Equal(dst.starts, want) {
		t.Fatalf("batches loaded starting at %q, want %q: one at a time, in the order read", dst.starts, want)
	}
	for i := range 30 {
		if _, err := dst.Destination.For("m").Get(ctx, fmt.Sprintf("k%03d", i)); err != nil {
			t.Fatalf("k%03d: %v", i, err)
		}
	}
}

func TestAFailedLoadEndsTheCopyAndNoLaterBatchLoads(t *testing.T) {
	dst := &gatedLoads{Destination: memory.New(), failAt: 2}
	rep, err := migrate.Copy(testenv.Context(t), seeded(t, 50), dst, migrate.Options{BatchSize: 10, SkipInvalid: true})
	if err == nil {
		t.Fatal("a copy whose load failed succeeded")
	}
	if dst.loads != 2 {
		t.Fatalf("%d loads, want 2: none after the failed one", dst.loads)
	}
	if rep.Written != 10 {
		t.Fatalf("written = %d, want the first batch's 10", rep.Written)
	}
	var line bytes.Buffer
	cmdmain.Report(&line, "migrate", err)
	if got := line.String(); strings.Count(got, "migrate:") != 1 || !strings.Contains(got, "items: the target refused the batch") {
		t.Fatalf("the failure line = %q; want the command named once, the items read and the cause", got)
	}
}

// The summary dates only what has a date: items kept without an earlier
// copy into the target have no checkpoint to name.
func TestTheSummaryDatesOnlyAnEarlierCopy(t *testing.T) {
	since := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		rep  migrate.Report
		want string // the summary's last line
	}{
		{"kept newer items after a copy name its time", migrate.Report{Read: 5, Written: 2, KeptNewer: 3, Deleted: 1, Since: since},
			"kept: 3 target items newer than the source's; 1 deleted on the target since the last copy into it (2026-11-29T01:00:00Z) stay deleted (--overwrite replaces both)"},
		{"kept newer items with no copy before name no time", migrate.Report{Read: 5, Written: 2, KeptNewer: 3},
			"kept: 3 target items newer than the source's (--overwrite replaces them)"},
		{"nothing kept says nothing of it", migrate.Report{Read: 5, Written: 5, Since: since},
			"done: 5 items read, 5 written, 0 already up to date, 0 invalid skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			tt.rep.WriteSummary(&out, false)
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, tt.want) || strings.Contains(out.String(), "0001-01-01") {
				t.Fatalf("summary:\n%s\nwant its last line to start %q", out.String(), tt.want)
			}
		})
	}
}
