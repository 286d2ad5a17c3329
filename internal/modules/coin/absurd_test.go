package coin

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/cron"
)

// A parseable price no coin can have is its source's failure, logged: the
// next source prices the coin; with every source absurd there is no
// price, so no trade goes through at it and no alert fires on it.
func TestAnAbsurdPriceIsASourceFailure(t *testing.T) {
	for _, absurd := range []string{"1e10000", "1e-10000", "1e15", "1e400", "0.0000000000000001"} {
		t.Run(absurd, func(t *testing.T) {
			b, f, clk := setup(t)
			b.MustSay(apptest.Group, apptest.User, "/coin_topup 1000")
			b.MustSay(apptest.Group, apptest.User, "/coin_buy ETH 300")
			b.MustSay(apptest.Group, apptest.User, "/coin_alert ETH above 4000")
			b.MustSay(apptest.Group, apptest.User, "/coin_alert ETH below 2000")
			f.mu.Lock()
			f.absurd, f.mode = absurd, map[string]string{"binance": "absurd"}
			f.mu.Unlock()
			clk.Add(time.Minute)
			b.Expect(apptest.Group, apptest.User, "/coin_price ETH", "ETH: $3,000.00 (Coinbase)")
			if !strings.Contains(b.Logs.String(), "outside the market's range") {
				t.Fatalf("logs %s; want the absurd answer logged", b.Logs.String())
			}
			f.mu.Lock()
			f.mode = map[string]string{"binance": "absurd", "coinbase": "absurd", "coingecko": "absurd"}
			f.mu.Unlock()
			clk.Add(time.Minute)
			sends := len(b.Srv.Calls("sendMessage"))
			out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_alerts", clk.Now().Truncate(time.Minute))
			if err != nil || out != cron.Ran {
				t.Fatalf("the check: %v, %v", out, err)
			}
			if n := len(b.Srv.Calls("sendMessage")) - sends; n != 0 {
				t.Fatalf("%d alerts fired on an absurd price", n)
			}
			b.Converse(apptest.Group, apptest.User, []apptest.Step{
				{"/coin_sell ETH all", "No price for ETH right now; every source failed. Try again later."},
				{"/coin_stats", "0.1 ETH: no price now (cost $300.00)\nCash: $700.00\nTotal: $1,000.00 (invested $1,000.00, P/L $0.00)"},
			})
		})
	}
}
