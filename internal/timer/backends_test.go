package timer_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

// On every backend: four replicas ticking the same minute fire each timer
// once, and a Cancel racing them is decided once (a confirmed Cancel, no
// callback; otherwise one callback).
func TestRacingTicksAndCancelsDecideEachTimerOnceOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			t.Skip(backendtest.FerretDBLimit) // the take is a value-matched swap
		}
		ctx := context.Background()
		clk := apptest.NewClock(t0)
		var c calls
		store := p.For(storage.CoreNamespace)
		e := engine(store, clk, c.on)
		const n = 20
		for i := range n {
			set(t, e, fmt.Sprintf("k%02d", i), t0.Add(time.Duration(i)*time.Second))
		}
		clk.Add(time.Minute)
		outcomes := make([]app.CancelOutcome, n/2)
		var wg sync.WaitGroup
		for range 4 {
			r := engine(store, clk, c.on)
			wg.Go(func() {
				if _, err := r.Tick(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		for i := range n / 2 {
			wg.Go(func() {
				o, err := e.For("m").Cancel(ctx, fmt.Sprintf("k%02d", 2*i))
				if err != nil {
					t.Error(err)
				}
				outcomes[i] = o
			})
		}
		wg.Wait()
		fired := map[string]int{}
		for _, tm := range c.list() {
			fired[tm.Key]++
		}
		for i := range n {
			key := fmt.Sprintf("k%02d", i)
			cancelled := i%2 == 0 && outcomes[i/2] == app.Cancelled
			switch {
			case fired[key] > 1:
				t.Errorf("%s fired %d times", key, fired[key])
			case cancelled && fired[key] != 0:
				t.Errorf("%s: Cancel confirmed, and it fired", key)
			case !cancelled && fired[key] != 1:
				t.Errorf("%s: not cancelled (%v), fired %d times", key, outcomes, fired[key])
			}
		}
	})
}
