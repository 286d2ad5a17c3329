package coin

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// Selling what is not held is refused before any price source is asked.
func TestSellingWhatIsNotHeldAsksNoSource(t *testing.T) {
	tests := []struct{ command, reply string }{
		{"/coin_sell BTC 1", "Not done: not enough of that holding: you hold 0."},
		{"/coin_sell BTC all", "Not done: not enough of that holding: you hold 0."},
		{"/coin_sell ETH 1", "Not done: not enough of that holding: you hold 0.5."},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			b, f, clk := setup(t)
			b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 10000")
			b.MustSay(apptest.PrivateChat, apptest.User, "/coin_buy ETH 1500")
			clk.Add(10 * priceFresh) // no cached price to hide a call
			before := f.total()
			b.Expect(apptest.PrivateChat, apptest.User, tt.command, tt.reply)
			if after := f.total(); after != before {
				t.Fatalf("%d price calls for a refused sale; want none", after-before)
			}
		})
	}
}
