package storagetest_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/anishathalye/porcupine"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// lossyStore acknowledges every other Put without writing it: the kind of bug
// (a dropped write, an ignored error) the linearizability check exists to catch.
type lossyStore struct {
	storage.KVStore
	puts atomic.Int64
}

func (l *lossyStore) Put(ctx context.Context, key string, val []byte) error {
	if l.puts.Add(1)%2 == 0 {
		return nil
	}
	return l.KVStore.Put(ctx, key, val)
}

// carelessStore deletes whatever a conditional delete names, matching or
// not: the cancel-and-fire-both-win bug the check must catch.
type carelessStore struct{ storage.KVStore }

func (c carelessStore) CompareAndDelete(ctx context.Context, key string, _ []byte) error {
	return c.Delete(ctx, key)
}

func TestCheckerAcceptsACorrectStore(t *testing.T) {
	h, err := storagetest.Record(t.Context(), memory.New().For("m"), storagetest.DefaultWorkload)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := storagetest.Check(h); res != porcupine.Ok {
		t.Fatalf("a correct store's history checked as %s", res)
	}
}

func TestCheckerRejectsAStoreThatLosesWrites(t *testing.T) {
	workloads := map[string]storagetest.Workload{
		// One client makes the history sequential, so the lost write is
		// certain to show: the next read of that key returns the older value.
		"sequential": {Clients: 1, Ops: 200, Keys: 2, Seed: 7},
		"concurrent": {Clients: 6, Ops: 100, Keys: 3, Seed: 7},
	}
	for name, w := range workloads {
		t.Run(name, func(t *testing.T) {
			s := &lossyStore{KVStore: memory.New().For("m")}
			h, err := storagetest.Record(t.Context(), s, w)
			if err != nil {
				t.Fatal(err)
			}
			if res, _ := storagetest.Check(h); res != porcupine.Illegal {
				t.Fatalf("a store that loses writes checked as %s, want Illegal", res)
			}
		})
	}
}

func TestCheckerRejectsAStoreWhoseConditionalDeleteIgnoresTheValue(t *testing.T) {
	s := carelessStore{memory.New().For("m")}
	h, err := storagetest.Record(t.Context(), s, storagetest.Workload{Clients: 1, Ops: 200, Keys: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := storagetest.Check(h); res != porcupine.Illegal {
		t.Fatalf("a store whose conditional delete ignores the value checked as %s, want Illegal", res)
	}
}
