package timer_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

// gated holds the first write of a due record until released: the moment
// between a Set pointing its key's index at its record and writing it.
// While refuse is set it refuses deletes, as a Set that died before its
// clean-up leaves what it wrote.
type gated struct {
	storage.KVStore
	taken   atomic.Bool
	refuse  atomic.Bool
	reached chan struct{}
	release chan struct{}
}

var errRefused = errors.New("refused")

func (g *gated) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	if strings.HasPrefix(k, "timer:at:") && old == nil && g.taken.CompareAndSwap(false, true) {
		close(g.reached)
		<-g.release
	}
	return g.KVStore.CompareAndSwap(ctx, k, old, v)
}

func (g *gated) Delete(ctx context.Context, k string) error {
	if g.refuse.Load() {
		return errRefused
	}
	return g.KVStore.Delete(ctx, k)
}

func (g *gated) CompareAndDelete(ctx context.Context, k string, old []byte) error {
	if g.refuse.Load() {
		return errRefused
	}
	return g.KVStore.CompareAndDelete(ctx, k, old)
}

// Two Sets of one free key, the second while the first has claimed the
// key and not yet written its timer: one holds the key, the other is told
// ErrTimerExists with it, and the key's timer fires once, also when the
// loser could not take back what it wrote (it died, or the store refused).
func TestTwoSetsOfOneKeyRacingLeaveOneTimerOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		for _, ns := range []string{"cleaned", "left"} {
			t.Run(ns, func(t *testing.T) { racingSets(t, p.For(ns), ns == "left") })
		}
	})
}

func racingSets(t *testing.T, store storage.KVStore, left bool) {
	ctx := context.Background()
	clk := apptest.NewClock(t0)
	g := &gated{KVStore: store, reached: make(chan struct{}), release: make(chan struct{})}
	var c calls
	e := engine(g, clk, c.on)
	first := make(chan error, 1)
	go func() {
		_, err := e.For("m").Set(ctx, app.Timer{Key: "k", ChatID: -5, At: t0.Add(10 * time.Second), Payload: []byte("first")})
		first <- err
	}()
	<-g.reached
	_, second := e.For("m").Set(ctx, app.Timer{Key: "k", ChatID: -5, At: t0.Add(20 * time.Second), Payload: []byte("second")})
	g.refuse.Store(left)
	close(g.release)
	errs := []error{<-first, second}
	g.refuse.Store(false)
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case left && errors.Is(err, errRefused): // the loser could not take its timer back: it says so
		case !errors.Is(err, app.ErrTimerExists):
			t.Fatalf("a Set failed: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("Sets answered %v, want one nil and the other ErrTimerExists (or its store's error)", errs)
	}
	clk.Add(time.Minute)
	tick(t, e)
	if got := c.list(); len(got) != 1 {
		t.Errorf("the key's timer fired %d times, want once: %v", len(got), got)
	}
	if got, err := e.For("m").List(ctx, ""); err != nil || len(got) != 0 {
		t.Errorf("after the fire the module lists %v (%v), want nothing", got, err)
	}
}
