package coin

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

func (f *fakeMarkets) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls["binance"] + f.calls["coinbase"] + f.calls["coingecko"]
}

// A symbol all three APIs call unknown costs one call to each, then none
// until trading.UnknownFor has passed.
func TestAnUnknownCoinIsNotAskedForAgainForAWhile(t *testing.T) {
	const oneEach = 3
	unknownPrice := func(t *testing.T, b *apptest.Bot) {
		b.Expect(apptest.Group, apptest.User, "/coin_price NOPE", "Unknown coin: NOPE.")
	}
	tests := []struct {
		name          string
		prepare       func(b *apptest.Bot, f *fakeMarkets, clk *apptest.Clock)
		first, repeat func(t *testing.T, b *apptest.Bot)
	}{
		{"a repeated command", func(*apptest.Bot, *fakeMarkets, *apptest.Clock) {}, unknownPrice, unknownPrice},
		{"a refresh of a portfolio holding a delisted coin", func(b *apptest.Bot, f *fakeMarkets, clk *apptest.Clock) {
			b.MustSay(apptest.Group, apptest.User, "/coin_topup 100")
			b.MustSay(apptest.Group, apptest.User, "/coin_buy BTC 10")
			f.mu.Lock()
			delete(f.prices, "BTC")
			f.mu.Unlock()
			clk.Add(time.Minute) // past the price's cache
		}, func(t *testing.T, b *apptest.Bot) {
			b.Expect(apptest.Group, apptest.User, "/coin_stats", "0.00016666 BTC: no price now (cost $10.00)\nCash: $90.00\nTotal: $100.00 (invested $100.00, P/L $0.00)")
		}, func(t *testing.T, b *apptest.Bot) {
			if _, err := b.Press(apptest.Group, apptest.User, "🔄 Refresh"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, clk := setup(t)
			tt.prepare(b, f, clk)
			asked := func(ask func(*testing.T, *apptest.Bot)) int {
				before := f.total()
				ask(t, b)
				return f.total() - before
			}
			if n := asked(tt.first); n != oneEach {
				t.Fatalf("the first ask made %d API calls, want %d", n, oneEach)
			}
			clk.Add(trading.UnknownFor - time.Second)
			if n := asked(tt.repeat); n != 0 {
				t.Fatalf("the repeat made %d API calls, want none", n)
			}
			clk.Add(time.Second)
			if n := asked(tt.repeat); n != oneEach {
				t.Fatalf("after %s the repeat made %d API calls, want %d: asked again", trading.UnknownFor, n, oneEach)
			}
		})
	}
}
