package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

const racers = 32

func concurrencyCases(cfg config) []testCase {
	return []testCase{
		{"32 racing nil-expected inserts have exactly one winner", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
			s := p.For("mod")
			winners := race(ctx, t, func(i int) error {
				return s.CompareAndSwap(ctx, "k", nil, []byte(fmt.Sprint("writer-", i)))
			})
			checkOneWinner(ctx, t, s, winners)
		}},
		{"32 racing updates from one expected value have exactly one winner", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
			if cfg.staleRaceSkip != "" {
				t.Skip(cfg.staleRaceSkip)
			}
			s := p.For("mod")
			mustPut(ctx, t, s, "k", []byte("v0"))
			winners := race(ctx, t, func(i int) error {
				return s.CompareAndSwap(ctx, "k", []byte("v0"), []byte(fmt.Sprint("writer-", i)))
			})
			checkOneWinner(ctx, t, s, winners)
		}},
		{"32 racing conditional deletes of one value have exactly one winner", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
			s := p.For("mod")
			mustPut(ctx, t, s, "k", []byte("v0"))
			winners := race(ctx, t, func(int) error { return s.CompareAndDelete(ctx, "k", []byte("v0")) })
			if len(winners) != 1 {
				t.Fatalf("%d winners %v, want exactly 1", len(winners), winners)
			}
			wantAbsent(ctx, t, s, "k")
		}},
		{"conditional deletes racing swaps from the same read value have exactly one winner", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
			// A timer's cancel (delete) and fire (swap to "fired") decided once.
			if cfg.staleRaceSkip != "" {
				t.Skip(cfg.staleRaceSkip)
			}
			s := p.For("mod")
			mustPut(ctx, t, s, "k", []byte("v0"))
			deletes := func(i int) bool { return i%2 == 0 }
			winners := race(ctx, t, func(i int) error {
				if deletes(i) {
					return s.CompareAndDelete(ctx, "k", []byte("v0"))
				}
				return s.CompareAndSwap(ctx, "k", []byte("v0"), []byte(fmt.Sprint("writer-", i)))
			})
			if len(winners) != 1 {
				t.Fatalf("%d winners %v, want exactly 1", len(winners), winners)
			}
			if deletes(winners[0]) {
				wantAbsent(ctx, t, s, "k")
				return
			}
			checkOneWinner(ctx, t, s, winners)
		}},
		{"a concurrent history of get, put, CAS and conditional delete is linearizable", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
			w := cfg.workload
			if cfg.staleRaceSkip != "" {
				// Racing value-matched CAS, and a conditional delete racing
				// a write, is what the server cannot do atomically; gets,
				// puts and racing inserts are still checked.
				t.Log("CAS in this history is insert-only, with no conditional deletes:", cfg.staleRaceSkip)
				w.InsertOnlyCAS = true
			}
			history, err := Record(ctx, p.For("mod"), w)
			if err != nil {
				t.Fatalf("recording the history: %v", err)
			}
			RequireLinearizable(t, history)
		}},
	}
}

// race starts racers goroutines on a shared barrier and returns which
// succeeded. Any error other than ErrConflict fails the test.
func race(ctx context.Context, t *testing.T, op func(i int) error) []int {
	t.Helper()
	start := make(chan struct{})
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			<-start
			errs[i] = op(i)
		})
	}
	close(start)
	wg.Wait()
	var winners []int
	for i, err := range errs {
		switch {
		case err == nil:
			winners = append(winners, i)
		case !errors.Is(err, storage.ErrConflict):
			t.Errorf("racer %d: %v, want nil or ErrConflict", i, err)
		}
	}
	return winners
}

func checkOneWinner(ctx context.Context, t *testing.T, s storage.KVStore, winners []int) {
	t.Helper()
	if len(winners) != 1 {
		t.Fatalf("%d winners %v, want exactly 1", len(winners), winners)
	}
	if got, want := string(mustGet(ctx, t, s, "k")), fmt.Sprint("writer-", winners[0]); got != want {
		t.Fatalf("stored %q, but the winner wrote %q", got, want)
	}
}
