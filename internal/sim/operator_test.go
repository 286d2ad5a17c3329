package sim_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/sim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

var opened atomic.Int64

// backend opens a fresh store of kind, named as the operator calls it.
func backend(t *testing.T, kind string) sim.Backend {
	return sim.Backend{Name: fmt.Sprintf("%s store %d", kind, opened.Add(1)), KVProvider: open(t, kind)}
}

// farSide is where a life on kind is cut over to: the other server's store
// when it runs, else the other embedded one.
func farSide(kind string) string {
	switch {
	case kind == "memory":
		return "bolt"
	case kind == "mongodb" && os.Getenv("AWS_ENDPOINT_URL_DYNAMODB") != "":
		return "dynamodb"
	case kind == "dynamodb" && os.Getenv("MONGODB_TEST_URL") != "":
		return "mongodb"
	}
	return "memory"
}

// operated is a life's store on kind with its operator.
func operated(t *testing.T, kind string) (storage.KVProvider, *sim.Operator) {
	home := backend(t, kind)
	kinds := map[string]string{home.Name: kind}
	far := backend(t, farSide(kind))
	kinds[far.Name] = farSide(kind)
	return home.KVProvider, &sim.Operator{Home: home, Far: far, Dir: t.TempDir(),
		Empty: func(like sim.Backend) storage.KVProvider { return open(t, kinds[like.Name]) }}
}

// TestTheOperatorIsInvisible: cutovers, rollbacks, snapshots and restores
// change nothing the users see but the wait: made in no time, every answer
// of a life with the operator is the answer of the same seed's life
// without one.
func TestTheOperatorIsInvisible(t *testing.T) {
	t.Parallel()
	for _, s := range []uint64{1, 8} {
		t.Run(fmt.Sprintf("seed%d", s), func(t *testing.T) {
			t.Parallel()
			var with, without sim.Result
			t.Cleanup(func() { // once both lives have ended
				if t.Failed() {
					return
				}
				if with.Users != without.Users {
					t.Errorf("seed %d: the users saw %s with the operator, %s without", s, with.Users, without.Users)
				}
				if with.Digest == without.Digest {
					t.Errorf("seed %d: the operator's events are not in the history %s", s, with.Digest)
				}
			})
			t.Run("operated", func(t *testing.T) {
				t.Parallel()
				home, op := operated(t, "memory")
				op.Instant = true
				with = sim.Run(t, sim.Config{Seed: s, Days: 3, PerDay: 120, Store: home, Operator: op, Known: known})
			})
			t.Run("alone", func(t *testing.T) {
				t.Parallel()
				without = sim.Run(t, sim.Config{Seed: s, Days: 3, PerDay: 120, Store: open(t, "memory"), Known: known})
			})
		})
	}
}

// stopped is a testing.TB whose Fatal ends the life and says why, for a
// test that a life stops.
type stopped struct {
	testing.TB
	why chan string
}

func (s *stopped) Fatal(args ...any) { s.why <- fmt.Sprint(args...); runtime.Goexit() }

func (s *stopped) Fatalf(format string, args ...any) {
	s.why <- fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestACarelessRollbackIsCaught: a rollback by a plain copy, which keeps on
// the store what the users deleted on the other side meanwhile (seed 3: an
// unsubscribe and three games the mirror deletes), stops the life at the
// rollback, naming the keys the bot deleted that are back.
func TestACarelessRollbackIsCaught(t *testing.T) {
	t.Parallel()
	home, op := operated(t, "memory")
	op.Careless = true
	tb := &stopped{TB: t, why: make(chan string, 1)}
	go func() {
		defer close(tb.why)
		sim.Run(tb, sim.Config{Seed: 3, Days: 3, PerDay: 120, Store: home, Operator: op, Known: known})
	}()
	why, ok := <-tb.why
	if !ok {
		t.Fatal("the life lived past a rollback that brought deleted items back")
	}
	if !strings.Contains(why, "keyspace: after the rollback") || !strings.Contains(why, "deleted by the bot, back") {
		t.Fatalf("the life stopped, but not at the rollback's resurrected items: %s", why)
	}
	t.Log(why)
}

// TestASlotThePauseHeldRunsOnce: a cutover's window that holds the daily
// push is lived, and the push of that day still reaches every subscribed
// chat once: the container catches it up at start (seed 13), or the
// operator runs it by hand by its own time, the window having outlasted
// the catch-up (seed 1, 8.5 hours; a Lambda catches nothing up).
func TestASlotThePauseHeldRunsOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		seed uint64
		how  string
	}{{13, "caught-up="}, {1, "run-by-hand="}} {
		t.Run(fmt.Sprintf("seed%d", tt.seed), func(t *testing.T) {
			t.Parallel()
			home, op := operated(t, "memory")
			res := sim.Run(t, sim.Config{Seed: tt.seed, Days: 3, PerDay: 120, Store: home, Operator: op, Known: known})
			if !strings.Contains(res.Summary, tt.how) {
				t.Fatalf("seed %d: no slot %s: %s", tt.seed, strings.TrimSuffix(tt.how, "="), res.Summary)
			}
		})
	}
}
