package stats

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

func TestTalliesAreExactWhenProcessesAndUpdatesRace(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			t.Skip(backendtest.FerretDBLimit)
		}
		ctx := context.Background()
		shared := newTallies(p.For(Name)) // updates racing in one process
		var wg sync.WaitGroup
		for i := range 4 { // more than one user's updates ever race
			tl := shared
			if i%2 == 0 {
				tl = newTallies(p.For(Name)) // and other processes
			}
			wg.Go(func() {
				for n := range 200 {
					if err := tl.add(ctx, "7", "", "ping", int64(i*1000+n+1)); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		u, err := shared.load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.counts["7"]["ping"]; got != 800 {
			t.Fatalf("4 x 200 uses counted %d", got)
		}
	})
}

func TestCountsFromBeforeTalliesStillShow(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For(Name)
	for k, v := range map[string]string{
		"n:cu.ping.7:0": "2", "n:cu.ping.7:5": "1", "n:cmd.ping:0": "3", "n:user.7:1": "3",
		"n:cu.help.8:3": "4", "name.7": "old", "name.8": "bob",
	} {
		if err := s.Put(ctx, k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	tl := newTallies(s)
	if err := tl.add(ctx, "7", "alice", "ping", 0); err != nil {
		t.Fatal(err)
	}
	u, err := tl.load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.counts["7"]["ping"] != 4 || u.counts["8"]["help"] != 4 || len(u.counts) != 2 {
		t.Errorf("counts %v, want 7: ping 4 (3 before, 1 after) and 8: help 4", u.counts)
	}
	if u.names["7"] != "alice" || u.names["8"] != "bob" {
		t.Errorf("names %v, want the tally's name over the old key's", u.names)
	}
}

func TestAUserCountCostsOneWriteWhenThisProcessWroteLast(t *testing.T) {
	ctx := context.Background()
	s := &calls{KVStore: memory.New().For(Name)}
	tl := newTallies(s)
	want := []int{2, 1, 1} // the first count reads; the next ones swap the bytes they wrote
	for i, w := range want {
		s.n = 0
		if err := tl.add(ctx, "7", "alice", "ping", 0); err != nil {
			t.Fatal(err)
		}
		if s.n != w {
			t.Errorf("count %d cost %d calls, want %d", i+1, s.n, w)
		}
	}
	// Another process counts: this one's bytes are stale, and it reads again.
	if err := newTallies(s).add(ctx, "7", "alice", "help", 0); err != nil {
		t.Fatal(err)
	}
	s.n = 0
	if err := tl.add(ctx, "7", "alice", "ping", 0); err != nil || s.n != 3 {
		t.Errorf("after another process: %d calls (%v), want 3 (a failed swap, a read, a swap)", s.n, err)
	}
	u, err := tl.load(ctx)
	if err != nil || u.counts["7"]["ping"] != 4 || u.counts["7"]["help"] != 1 {
		t.Errorf("counts %v (%v), want ping 4 and help 1", u.counts, err)
	}
}

type calls struct {
	storage.KVStore
	n int
}

func (c *calls) Get(ctx context.Context, k string) ([]byte, error) {
	c.n++
	return c.KVStore.Get(ctx, k)
}

func (c *calls) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	c.n++
	return c.KVStore.CompareAndSwap(ctx, k, old, v)
}

// The core runs a hook again when it failed, and its write may have landed
// unheard (a timeout after writing): an update is counted once however
// often its count is told (simulation seed 10, a count lost in an outage,
// whose fix runs the failed hook again). Without an update_id, every
// telling counts.
func TestACountToldAgainForItsUpdateCountsOnce(t *testing.T) {
	ctx := context.Background()
	p := storagetest.NewUnheard(memory.New())
	tl := newTallies(p.For(Name))
	p.Arm(Name, tallyKeys, true)
	if err := tl.add(ctx, "7", "alice", "ping", 41); !errors.Is(err, storagetest.ErrUnheard) {
		t.Fatalf("the count that landed unheard: %v", err)
	}
	for _, tell := range []struct {
		tl     *tallies
		update int64
	}{{tl, 41}, {newTallies(p.For(Name)), 41}, {tl, 42}, {tl, 0}, {tl, 0}} {
		if err := tell.tl.add(ctx, "7", "alice", "ping", tell.update); err != nil {
			t.Fatal(err)
		}
	}
	u, err := tl.load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := u.counts["7"]["ping"]; got != 4 {
		t.Fatalf("updates 41 (told three times), 42 and two without an id counted %d times, want 4", got)
	}
}
