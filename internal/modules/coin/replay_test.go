package coin

import (
	"fmt"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A change whose confirmation Telegram failed to take is delivered again:
// the redelivery confirms it, and changes nothing a second time (found by
// the simulation harness, seed 2 of its short life).
func TestARedeliveredTradeIsConfirmedAndAppliedOnce(t *testing.T) {
	tests := []struct {
		command, reply string
		// sourcesDown: by the redelivery the price went stale and every
		// source is down; the change landed, so the user is told it did.
		sourcesDown bool
	}{
		{"/coin_topup 1000", "Topped up $1,000.00. Cash: $2,000.00.", false},
		{"/coin_buy BTC 0.01", "Bought 0.00000016 BTC at $60,000.50 for $0.01. Cash: $999.99.", false},
		{"/coin_buy BTC 0.01", "Bought 0.00000016 BTC at $60,000.50 for $0.01. Cash: $999.99.", true},
		{"/coin_sell BTC all", "Sold 0.00000016 BTC at $60,000.50 for $0.01. Cash: $3,000.00.", false},
		{"/coin_sell BTC all", "Sold 0.00000016 BTC at $60,000.50 for $0.01. Cash: $3,000.00.", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s sources down %t", tt.command, tt.sourcesDown), func(t *testing.T) {
			b, f, clk := setup(t)
			b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
			if tt.command == "/coin_sell BTC all" {
				b.MustSay(apptest.PrivateChat, apptest.User, "/coin_buy BTC 0.01")
				b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
				b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
			}
			u := telegramtest.Text(apptest.PrivateChat, apptest.User, tt.command)
			u.ID = 900_001
			b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
			if err := b.Handle(u); err == nil {
				t.Fatal("the first delivery's reply failed: the update must fail, so Telegram delivers it again")
			}
			if tt.sourcesDown {
				clk.Add(time.Hour)
				f.mu.Lock()
				for _, p := range []string{"binance", "coinbase", "coingecko"} {
					f.mode[p] = "down"
				}
				f.mu.Unlock()
			}
			if err := b.Handle(u); err != nil {
				t.Fatalf("the redelivery: %v", err)
			}
			if got := b.Last(); got != tt.reply {
				t.Fatalf("the redelivery replied %q, want %q", got, tt.reply)
			}
		})
	}
}
