package lease

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// A process starting under the name of the lease's holder watches the
// record first: left unrenewed, it was a killed predecessor's and is taken;
// renewed meanwhile, a live process has the same name, and the newcomer
// reports the clash once and stands by instead of polling beside it.
func TestASecondLiveProcessWithTheSameNameStandsDown(t *testing.T) {
	tests := []struct {
		name      string
		renewed   bool // the first process renews while the second watches
		wantHolds bool
		wantClash bool
	}{
		{"a killed predecessor's lease is taken after one watch", false, true, false},
		{"a live namesake's lease is left, and the clash reported", true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := memory.New().For("core")
			clk := &clock{t: t0}
			first := New(store, "poller", "host", 30*time.Second, WithClock(clk.now))
			if won, err := first.try(t.Context()); !won || err != nil {
				t.Fatalf("the first process: %v %v", won, err)
			}
			waits, proceed := make(chan struct{}), make(chan struct{})
			wait := func(ctx context.Context, _ time.Duration) error {
				select {
				case waits <- struct{}{}:
				case <-ctx.Done():
					return ctx.Err()
				}
				select {
				case <-proceed:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			var mu sync.Mutex
			var clashes []string
			second := New(store, "poller", "host", 30*time.Second, WithClock(clk.now), WithWait(wait),
				WithClash(func(holder string) { mu.Lock(); clashes = append(clashes, holder); mu.Unlock() }))
			ctx, cancel := context.WithCancel(testenv.Context(t))
			defer cancel()
			held, standing := make(chan struct{}), make(chan struct{})
			var once sync.Once
			done := make(chan struct{})
			go func() {
				defer close(done)
				_ = second.Hold(ctx, func(context.Context) { close(held); cancel() }, func() { once.Do(func() { close(standing) }) })
			}()
			<-waits // the second process watches the record
			clk.add(20 * time.Second)
			if tt.renewed {
				if won, err := first.try(t.Context()); !won || err != nil {
					t.Fatalf("the first process's renewal: %v %v", won, err)
				}
			}
			proceed <- struct{}{}
			select {
			case <-held:
				if !tt.wantHolds {
					t.Fatal("the second process took a live namesake's lease")
				}
			case <-standing:
				if tt.wantHolds {
					t.Fatal("the second process stood by behind a killed predecessor")
				}
				if holds, _ := first.Holds(t.Context()); !holds {
					t.Fatal("the first process lost its lease to its namesake")
				}
			case <-ctx.Done():
				t.Fatal("the second process neither held nor stood by")
			}
			cancel()
			<-done
			mu.Lock()
			defer mu.Unlock()
			if want := first.ID(); tt.wantClash && (len(clashes) != 1 || clashes[0] != want) {
				t.Fatalf("clashes reported %q, want one naming %q", clashes, want)
			}
			if !tt.wantClash && len(clashes) != 0 {
				t.Fatalf("clashes reported %q, want none", clashes)
			}
		})
	}
}
