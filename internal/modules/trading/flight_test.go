package trading

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// Many asks of one symbol at once on a cold cache (a group typing @bot btc
// together, each inline query run beside the others) cost its sources one
// call: the others wait for that one's answer.
func TestConcurrentAsksOfOneSymbolCostOneSourceCall(t *testing.T) {
	const askers = 10
	now := t0
	qs := newChain(&now)
	var mu sync.Mutex
	calls, waiting := 0, 0
	release := make(chan struct{})
	// The source answers once every asker is in it or waiting for
	// another's ask: an asker that called it itself shows as a call.
	arrived := func(call bool) {
		mu.Lock()
		defer mu.Unlock()
		if call {
			calls++
		} else {
			waiting++
		}
		if calls+waiting == askers {
			close(release)
		}
	}
	qs.flights.joined = func() { arrived(false) }
	qs.Sources = []Source{{Name: "slow", Price: func(ctx context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		arrived(true)
		<-release
		return d("60000"), nil
	}}}
	var wg sync.WaitGroup
	for range askers {
		wg.Go(func() {
			if q, err := qs.Price(t.Context(), "BTC"); err != nil || !q.Price.Equal(d("60000")) {
				t.Errorf("Price = %v, %v", q.Price, err)
			}
		})
	}
	wg.Wait()
	if calls != 1 {
		t.Fatalf("%d source calls for %d asks at once, want 1", calls, askers)
	}
}
