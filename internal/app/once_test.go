package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// counter is a state kept with ApplyOnce: each change adds one.
type counter struct {
	app.Once[string]
	N int `json:"n"`
}

var errRefused = errors.New("refused")

// racing is a store where another process changes the value (with change
// 99) just before the first compare-and-swap lands, so that swap loses.
type racing struct {
	storage.KVStore
	once sync.Once
}

func (s *racing) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	s.once.Do(func() {
		if _, err := app.ApplyOnce(ctx, s.KVStore, key, 99, add); err != nil {
			panic(err)
		}
	})
	return s.KVStore.CompareAndSwap(ctx, key, expected, val)
}

func add(c *counter, _ bool) (string, error) {
	c.N++
	return fmt.Sprintf("n=%d", c.N), nil
}

func TestApplyOnceMakesAChangeOnceAndAnswersItsKeptReplyWhenToldAgain(t *testing.T) {
	type step struct {
		id   int64
		fail bool   // f refuses the change
		want string // the reply
		ran  bool   // f ran (its last run, after a lost race)
	}
	cases := []struct {
		name        string
		remember    int
		race        bool // another process changes the state under the first swap
		steps       []step
		wantN       int
		wantApplied []int64
	}{
		{
			name:  "a first change is made and remembered with its reply",
			steps: []step{{id: 1, want: "n=1", ran: true}},
			wantN: 1, wantApplied: []int64{1},
		},
		{
			name:  "a change told again answers its kept reply and changes nothing",
			steps: []step{{id: 1, want: "n=1", ran: true}, {id: 2, want: "n=2", ran: true}, {id: 1, want: "n=1"}},
			wantN: 2, wantApplied: []int64{1, 2},
		},
		{
			name:  "a change that loses the swap to a racer runs again on the racer's state",
			race:  true,
			steps: []step{{id: 1, want: "n=2", ran: true}, {id: 1, want: "n=2"}},
			wantN: 2, wantApplied: []int64{99, 1},
		},
		{
			name:     "only the last few changes are remembered",
			remember: 2,
			steps: []step{
				{id: 1, want: "n=1", ran: true}, {id: 2, want: "n=2", ran: true}, {id: 3, want: "n=3", ran: true},
				{id: 2, want: "n=2"}, {id: 1, want: "n=4", ran: true},
			},
			wantN: 4, wantApplied: []int64{3, 1},
		},
		{
			name:  "a refused change writes nothing and is not remembered",
			steps: []step{{id: 1, fail: true, want: "no", ran: true}, {id: 1, want: "n=1", ran: true}},
			wantN: 1, wantApplied: []int64{1},
		},
		{
			name:  "a change of unknown id (0) is made every time",
			steps: []step{{id: 0, want: "n=1", ran: true}, {id: 0, want: "n=2", ran: true}},
			wantN: 2, wantApplied: nil,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var store storage.KVStore = memory.New().For("once")
			if c.race {
				store = &racing{KVStore: store}
			}
			var opts []app.OnceOption
			if c.remember > 0 {
				opts = append(opts, app.Remember(c.remember))
			}
			for i, s := range c.steps {
				ran := false
				reply, err := app.ApplyOnce(t.Context(), store, "k", s.id, func(cur *counter, found bool) (string, error) {
					ran = true
					if s.fail {
						return "no", errRefused
					}
					return add(cur, found)
				}, opts...)
				if s.fail != errors.Is(err, errRefused) || (!s.fail && err != nil) {
					t.Fatalf("step %d: err %v, want refused %t", i, err, s.fail)
				}
				if reply != s.want || ran != s.ran {
					t.Fatalf("step %d (change %d): reply %q, ran %t; want %q, %t", i, s.id, reply, ran, s.want, s.ran)
				}
			}
			var got counter
			if err := store.GetJSON(t.Context(), "k", &got); err != nil {
				t.Fatal(err)
			}
			ids := make([]int64, 0, len(got.Applied))
			for _, a := range got.Applied {
				ids = append(ids, a.ID)
			}
			if got.N != c.wantN || !slices.Equal(ids, c.wantApplied) {
				t.Fatalf("state n=%d remembering %v; want n=%d remembering %v", got.N, ids, c.wantN, c.wantApplied)
			}
		})
	}
}

func TestARefusedFirstChangeLeavesNoState(t *testing.T) {
	store := memory.New().For("once")
	_, err := app.ApplyOnce(t.Context(), store, "k", 1, func(*counter, bool) (string, error) { return "", errRefused })
	if !errors.Is(err, errRefused) {
		t.Fatalf("err %v, want f's", err)
	}
	if _, err := store.Get(t.Context(), "k"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a refused change wrote the state: %v", err)
	}
}
