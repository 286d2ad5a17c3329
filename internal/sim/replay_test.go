package sim_test

import (
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
	again := sim.Run(t, cfg)
	if again.Digest != first.Digest {
		t.Errorf("seed %d: history %s, replayed on %s %s", cfg.Seed, first.Digest, kind, again.Digest)
	}
	rep, err := migrate.Verify(t.Context(), first.Store.(storage.Walker), again.Store.(migrate.Target), nil)
	if err != nil {
		t.Errorf("seed %d: the final store and its replay's on %s: %v: %v", cfg.Seed, kind, err, rep.Mismatches)
	}
	return rep
}

// TestReplayOnAnotherBackendVerifies: a life's final store and the final
// store of the same seed lived on another backend are identical item by
// item (the migrator's verify compares values; the stores' own update
// times are the wall clock's and differ).
func TestReplayOnAnotherBackendVerifies(t *testing.T) {
	home, op := operated(t, "memory")
	cfg := sim.Config{Seed: 8, Days: 3, PerDay: 120, Store: home, Operator: op, Known: known}
	replay(t, cfg, sim.Run(t, cfg), "bolt")
}
