package stats

import (
	"context"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

func TestCountersAreExactUnderConcurrency(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			t.Skip(backendtest.FerretDBLimit)
		}
		c := counters{store: p.For(Name)}
		ctx := context.Background()
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 500 {
					if err := c.add(ctx, "cmd.ping"); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		sums, err := c.sums(ctx, "cmd.")
		if err != nil {
			t.Fatal(err)
		}
		if sums["cmd.ping"] != 4000 {
			t.Fatalf("8 x 500 increments counted %d", sums["cmd.ping"])
		}
	})
}
