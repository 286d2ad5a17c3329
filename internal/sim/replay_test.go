package sim_test

import (
	"context"
	"testing"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/sim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// replay lives cfg's seed again on a store of kind, with its operator, and
// runs the migrator's verify between the two lives' final stores.
func replay(t *testing.T, cfg sim.Config, first sim.Result, kind string) *migrate.VerifyReport {
	t.Helper()
	cfg.Store, cfg.Operator = operated(t, kind)
	return verify(t, cfg.Seed, kind, first, sim.Run(t, cfg))
}

// verify: again, seed's life lived on kind, lived first's history and
// left first's final store, item by item.
func verify(t *testing.T, seed uint64, kind string, first, again sim.Result) *migrate.VerifyReport {
	t.Helper()
	if again.Digest != first.Digest {
		t.Errorf("seed %d: history %s, replayed on %s %s", seed, first.Digest, kind, again.Digest)
	}
	rep, err := migrate.Verify(context.Background(), first.Store.(storage.Walker), again.Store.(migrate.Target), nil)
	if err != nil {
		t.Errorf("seed %d: the final store and its replay's on %s: %v: %v", seed, kind, err, rep.Mismatches)
	}
	return rep
}

// TestReplayOnAnotherBackendVerifies: a life's final store and the final
// store of the same seed lived on another backend are identical item by
// item (the migrator's verify compares values; the stores' own update
// times are the wall clock's and differ).
func TestReplayOnAnotherBackendVerifies(t *testing.T) {
	t.Parallel()
	// The two lives run side by side; their stores (the operator's too)
	// are this test's, and outlive both.
	var lives [2]sim.Result
	kinds := []string{"memory", "bolt"}
	cfgs := make([]sim.Config, len(kinds))
	for i, kind := range kinds {
		cfgs[i] = sim.Config{Seed: 8, Days: 3, PerDay: 120, Known: known}
		cfgs[i].Store, cfgs[i].Operator = operated(t, kind)
	}
	t.Run("lives", func(t *testing.T) {
		for i, kind := range kinds {
			t.Run(kind, func(t *testing.T) {
				t.Parallel()
				lives[i] = sim.Run(t, cfgs[i])
			})
		}
	})
	if !t.Failed() {
		verify(t, 8, kinds[1], lives[0], lives[1])
	}
}
