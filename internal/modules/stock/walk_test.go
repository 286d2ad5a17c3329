package stock

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// walkInputs are what a stock trader types besides each command alone: the
// usual arguments and wrong ones, as a reader of either language would.
var walkInputs = []string{
	"/stock_price FPT ", "/stock_price ZZZ", "/stock_topup 1000000000", "/stock_topup abc",
	"/stock_buy FPT 100", "/stock_buy FPT 0,5", "/stock_buy FPT 999999999999", "/stock_sell FPT 1.500",
	"/stock_stats", "/stock_top join", "/stock_top", "/stock_sell FPT all", "/stock_top leave",
	"/stock_alert FPT above 1", "/stock_alert FPT sideways 1", "/stock_alert FPT above", "/stock_alerts",
	"/stock_chart FPT 7d", "/stock_chart FPT 9y",
}

// A Vietnamese reader walking every stock command and button, in a private
// chat and in a group, reads no English (apptest.ReadsNoEnglish).
func TestAVietnameseReaderWalksTheStockMarketAndReadsNoEnglish(t *testing.T) {
	newBot := func(t *testing.T) *apptest.Bot { b, _, _ := setup(t); return b }
	apptest.WalkReadsNoEnglish(t, newBot, "stock", walkInputs, []string{"FPT", "zzz"}, nil)
}
