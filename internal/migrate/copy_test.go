package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

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
}
