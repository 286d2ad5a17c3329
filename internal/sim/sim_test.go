package sim_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
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
	seed    = flag.Uint64("sim.seed", 0, "simulate one life with this seed (make simulate SEED=)")
	days    = flag.Int("sim.days", 3, "days of the life")
	store   = flag.String("sim.store", "memory", "memory, bolt, mongodb or dynamodb")
	perDay  = flag.Int("sim.perday", 200, "updates a day, about")
	trace   = flag.Bool("sim.trace", false, "print the history line by line")
	traceTo = flag.String("sim.tracefile", "", "write the history line by line to this file at the end (buffered: the life's timing stays as untraced)")
	again   = flag.String("sim.replay", "", "live the seed again on this store and verify the two final stores (make simulate REPLAY=)")
)

// known are the reported bugs a life counts and lives past (sim.Known),
// each with a test that it still happens (TestKnownBugsStillHappen) until
// it is fixed; the seeds of the fixed ones are TestFixedBugsStayFixed's.
var known = map[string]bool{}

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
	home, op := operated(t, *store)
	cfg := sim.Config{Seed: *seed, Days: *days, PerDay: *perDay, Store: home, Operator: op, Known: known}
	if *trace {
		cfg.Trace = os.Stdout
	}
	var buf bytes.Buffer
	if *traceTo != "" {
		cfg.Trace = &buf
		t.Cleanup(func() {
			if err := os.WriteFile(*traceTo, buf.Bytes(), 0o644); err != nil {
				t.Error(err)
			}
		})
	}
	res := sim.Run(t, cfg)
	t.Logf("seed %d, %d days on %s, %s wall: %d updates\n%s\nknown bugs met: %v\nhistory: %s",
		*seed, *days, *store, time.Since(began).Round(time.Millisecond), res.Updates, res.Summary, res.Known, res.Digest)
	if *again != "" {
		began = time.Now()
		var table strings.Builder
		replay(t, cfg, res, *again).WriteTable(&table)
		t.Logf("replayed on %s, %s wall; the migrator's verify of the two final stores:\n%s", *again, time.Since(began).Round(time.Millisecond), table.String())
	}
}

// Every store the CI has: the servers' stores only under with-testservers.
func stores() []string {
	out := []string{"memory", "bolt"}
	if os.Getenv("MONGODB_TEST_URL") != "" {
		out = append(out, "mongodb")
	}
	if os.Getenv("AWS_ENDPOINT_URL_DYNAMODB") != "" {
		out = append(out, "dynamodb")
	}
	return out
}

// ciSeeds are the short lives every test run lives on every store; a
// seed that once failed is added here with the bug it found.
// Seed 9's rollback and second cutover carry deletions (its mirrors delete
// 1, then 2 items) on every store.
var ciSeeds = []uint64{1, 7, 8, 9}

// A life shares nothing with another (its store, fakes, clock and
// processes are its own), so the tests live theirs side by side
// (t.Parallel): go test runs as many at once as -parallel allows.

// TestShortLives: a few seeded lives of two days keep every invariant,
// and a seed is one history whatever the store.
func TestShortLives(t *testing.T) {
	t.Parallel()
	for _, s := range ciSeeds {
		t.Run(fmt.Sprintf("seed%d", s), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			digests := map[string]string{}
			t.Cleanup(func() { // once every store's life has ended
				for name, d := range digests {
					if d != digests["memory"] {
						t.Errorf("seed %d: history %s on %s, %s on memory", s, d, name, digests["memory"])
					}
				}
			})
			for _, name := range stores() {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					home, op := operated(t, name)
					res := sim.Run(t, sim.Config{Seed: s, Days: 2, PerDay: 120, Store: home, Operator: op, Known: known})
					mu.Lock()
					digests[name] = res.Digest
					mu.Unlock()
				})
			}
		})
	}
}

// TestSameSeedSameHistory: a life replays exactly.
func TestSameSeedSameHistory(t *testing.T) {
	t.Parallel()
	var lives [2]sim.Result
	t.Cleanup(func() {
		if a, b := lives[0], lives[1]; !t.Failed() && (a.Digest != b.Digest || a.Summary != b.Summary) {
			t.Errorf("seed 4 lived twice: %s (%s), then %s (%s)", a.Digest, a.Summary, b.Digest, b.Summary)
		}
	})
	for i := range lives {
		t.Run(fmt.Sprintf("life%d", i+1), func(t *testing.T) {
			t.Parallel()
			lives[i] = sim.Run(t, sim.Config{Seed: 4, Days: 2, PerDay: 150, Store: memory.New(), Known: known})
		})
	}
}

// bugLife is a life that met a bug: its seed, and days enough to meet it.
type bugLife struct {
	bug  string
	seed uint64
	days int
}

// TestFixedBugsStayFixed lives the seeds of the bugs fixed since they were
// reported: no longer known, each bug's checker stops a life that meets it
// again, so every life here keeps every invariant. A life longer than a
// few days runs only without -short.
func TestFixedBugsStayFixed(t *testing.T) {
	t.Parallel()
	for _, life := range []bugLife{
		// Each seed met its bug's moment, described, when it was found. The
		// life has grown since (jobs, modules, users' steps), so a seed may
		// no longer meet that moment; it stays as one more life that must
		// keep every invariant.
		{sim.ReplayedTrade, 2, 2},   // a top-up's confirmation refused (5xx), run again
		{sim.ReplayedGuess, 10, 2},  // a winning guess's reply refused (500), run again
		{sim.ReplayedGuess, 14, 2},  // the same in loldle
		{sim.ReplayedGuess, 6, 20},  // a long life of guesses that end games
		{sim.UncountedEnd, 8, 2},    // a give-up's write landed, its caller heard a timeout
		{sim.UncountedEnd, 22, 2},   // a game's last write landed, its process killed
		{sim.UncountedEnd, 69, 3},   // a confirmed give-up's game write landed unheard
		{sim.LostCount, 3, 2},       // a command answered while the store went down
		{sim.LostGameResult, 83, 3}, // a confirmed give-up's write timed out
		{sim.Recounted, 1, 1},       // killed after the count, before the record
		{sim.KilledCount, 2, 1},     // killed at the count
		{sim.LostStep, 51, 1},       // a conversation's step moved it, killed before its question
	} {
		t.Run(fmt.Sprintf("%s/seed%d", life.bug, life.seed), func(t *testing.T) {
			t.Parallel()
			if known[life.bug] {
				t.Fatalf("%s is fixed: it must not be known", life.bug)
			}
			if testing.Short() && life.days > 5 {
				t.Skipf("%d days: a long life, without -short", life.days)
			}
			sim.Run(t, sim.Config{Seed: life.seed, Days: life.days, PerDay: 200, Store: memory.New(), Known: known})
		})
	}
}

// TestKnownBugsStillHappen lives a seed of each known bug and finds it: a
// fixed one fails here, and moves to the fixed ones.
func TestKnownBugsStillHappen(t *testing.T) {
	for _, life := range []bugLife{
		// none known now: a bug a life finds is added here with its seed
	} {
		t.Run(fmt.Sprintf("%s/seed%d", life.bug, life.seed), func(t *testing.T) {
			res := sim.Run(t, sim.Config{Seed: life.seed, Days: life.days, PerDay: 200, Store: memory.New(), Known: known})
			if _, ok := res.Known[life.bug]; !ok {
				t.Fatalf("%s no longer happens on seed %d: fixed? Move it to TestFixedBugsStayFixed (met: %v)", life.bug, life.seed, res.Known)
			}
		})
	}
}
