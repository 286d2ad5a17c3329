package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

type counter struct{ N int }

func TestUpdateJSON(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("test")
	add := func() error {
		return storage.UpdateJSON(ctx, s, "c", func(c *counter, _ bool) (bool, error) { c.N++; return true, nil })
	}

	t.Run("a missing key starts from the zero value, found false", func(t *testing.T) {
		err := storage.UpdateJSON(ctx, s, "c", func(c *counter, found bool) (bool, error) {
			if found || c.N != 0 {
				t.Errorf("found %v, value %+v", found, c)
			}
			c.N = 1
			return true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Run("racing updates each apply exactly once", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				if err := add(); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var c counter
		if err := s.GetJSON(ctx, "c", &c); err != nil || c.N != 17 {
			t.Fatalf("counter %d (%v), want 17", c.N, err)
		}
	})
	t.Run("false or an error writes nothing", func(t *testing.T) {
		boom := errors.New("boom")
		_ = storage.UpdateJSON(ctx, s, "c", func(c *counter, _ bool) (bool, error) { c.N = 100; return false, nil })
		if err := storage.UpdateJSON(ctx, s, "c", func(c *counter, _ bool) (bool, error) { c.N = 100; return true, boom }); !errors.Is(err, boom) {
			t.Fatalf("err %v", err)
		}
		var c counter
		if _ = s.GetJSON(ctx, "c", &c); c.N != 17 {
			t.Fatalf("counter %d after refused updates", c.N)
		}
	})
	t.Run("a value that is not JSON is an error, not a reset", func(t *testing.T) {
		_ = s.Put(ctx, "bad", []byte("not json"))
		if err := storage.UpdateJSON(ctx, s, "bad", func(c *counter, _ bool) (bool, error) { return true, nil }); err == nil {
			t.Fatal("garbage was overwritten")
		}
	})
}

// The helper against the loop it replaced, written out by hand:
// go test -run '^$' -bench Update -benchmem ./internal/storage/
func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	s := memory.New().For("bench")
	_ = s.PutJSON(ctx, "c", counter{})
	b.Run("UpdateJSON", func(b *testing.B) {
		for b.Loop() {
			if err := storage.UpdateJSON(ctx, s, "c", func(c *counter, _ bool) (bool, error) { c.N++; return true, nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("by hand", func(b *testing.B) {
		for b.Loop() {
			cur, err := s.Get(ctx, "c")
			if err != nil {
				b.Fatal(err)
			}
			var c counter
			if err := json.Unmarshal(cur, &c); err != nil {
				b.Fatal(err)
			}
			c.N++
			next, _ := json.Marshal(c)
			if err := s.CompareAndSwap(ctx, "c", cur, next); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reads counts Gets, to tell whether UpdateFrom trusted its guess.
type reads struct {
	storage.KVStore
	n int
}

func (r *reads) Get(ctx context.Context, k string) ([]byte, error) {
	r.n++
	return r.KVStore.Get(ctx, k)
}

func TestUpdateFrom(t *testing.T) {
	ctx := context.Background()
	appendX := func(cur []byte) ([]byte, error) { return append(append([]byte{}, cur...), 'x'), nil }
	cases := []struct {
		name      string
		stored    string // "": no value
		likely    []byte
		want      string
		wantReads int
	}{
		{"the right guess writes with one swap and no read", "a", []byte("a"), "ax", 0},
		{"a stale guess reads and applies f to what is stored", "b", []byte("a"), "bx", 1},
		{"a guess for a missing key reads and starts from nothing", "", []byte("a"), "x", 1},
		{"a guess of no value writes with one insert when there is none", "", nil, "x", 0},
		{"a guess of no value reads when there is one", "a", nil, "ax", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &reads{KVStore: memory.New().For("test")}
			if c.stored != "" {
				if err := s.KVStore.Put(ctx, "k", []byte(c.stored)); err != nil {
					t.Fatal(err)
				}
			}
			if err := storage.UpdateFrom(ctx, s, "k", c.likely, appendX); err != nil {
				t.Fatal(err)
			}
			got, err := s.KVStore.Get(ctx, "k")
			if err != nil || string(got) != c.want || s.n != c.wantReads {
				t.Fatalf("value %q (%v) after %d reads, want %q after %d", got, err, s.n, c.want, c.wantReads)
			}
		})
	}
}
