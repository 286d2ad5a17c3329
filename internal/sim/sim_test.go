package sim_test

import (
	"flag"
	"os"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/sim"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// make simulate passes these; without them a life is one of the short
// ones below.
var (
	seed   = flag.Uint64("sim.seed", 0, "simulate one life with this seed (make simulate SEED=)")
	days   = flag.Int("sim.days", 3, "days of the life")
	store  = flag.String("sim.store", "memory", "memory, bolt, mongodb or dynamodb")
	perDay = flag.Int("sim.perday", 200, "updates a day, about")
	trace  = flag.Bool("sim.trace", false, "print the history line by line")
)

// known are the reported bugs a life counts and lives past (sim.Known).
var known = map[string]bool{sim.ReplayedTrade: true, sim.ReplayedGuess: true}

func open(t *testing.T, name string) storage.KVProvider {
	switch name {
	case "memory":
		return memory.New()
	case "bolt":
		return backendtest.Bolt(t)
	case "mongodb":
		return backendtest.Mongo(t)
	case "dynamodb":
		return backendtest.Dynamo(t)
	}
	t.Fatalf("unknown store %q", name)
	return nil
}

// TestSimulate is one life chosen on the command line (make simulate).
func TestSimulate(t *testing.T) {
	if *seed == 0 {
		t.Skip("make simulate SEED=<n> picks a life")
	}
	began := time.Now()
	cfg := sim.Config{Seed: *seed, Days: *days, PerDay: *perDay, Store: open(t, *store), Known: known}
	if *trace {
		cfg.Trace = os.Stdout
	}
	res := sim.Run(t, cfg)
	t.Logf("seed %d, %d days on %s, %s wall: %d updates\n%s\nknown bugs met: %v\nhistory: %s",
		*seed, *days, *store, time.Since(began).Round(time.Millisecond), res.Updates, res.Summary, res.Known, res.Digest)
}
