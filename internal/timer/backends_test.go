package timer_test

import (
	"context"
	"errors"
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
// callback; otherwise one callback), whether the timers are kept or not.
func TestRacingTicksAndCancelsDecideEachTimerOnceOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			t.Skip(backendtest.FerretDBLimit) // the take is a value-matched swap
		}
		for _, keep := range []time.Duration{0, time.Hour} {
			t.Run(fmt.Sprintf("keep %v", keep), func(t *testing.T) { racingTicksAndCancels(t, p, keep) })
		}
	})
}

func racingTicksAndCancels(t *testing.T, p storage.KVProvider, keep time.Duration) {
	ctx := context.Background()
	clk := apptest.NewClock(t0)
	var c calls
	store := p.For(fmt.Sprintf("race%d", keep/time.Hour))
	e := engine(store, clk, c.on)
	const n = 20
	for i := range n {
		setKept(t, e.For("m"), fmt.Sprintf("k%02d", i), t0.Add(time.Duration(i)*time.Second), keep)
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
		if keep == 0 {
			continue
		}
		if _, err := e.For("m").Set(ctx, app.Timer{Key: key, At: clk.Now()}); !errors.Is(err, app.ErrTimerExists) {
			t.Errorf("%s: Set after the race = %v, want ErrTimerExists within Keep", key, err)
		}
	}
}
