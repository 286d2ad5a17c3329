package coin

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// walkInputs are what a coin trader types besides each command alone: the
// usual arguments and wrong ones, as a reader of either language would.
var walkInputs = []string{
	"/coin_price BTC ", "/coin_price NOSUCHCOIN1", "/coin_topup 1000000000", "/coin_topup abc",
	"/coin_buy BTC 100", "/coin_buy BTC 0,5", "/coin_buy BTC 999999999999", "/coin_sell BTC 1.500",
	"/coin_stats", "/coin_top join", "/coin_top", "/coin_sell BTC all", "/coin_top leave",
	"/coin_alert BTC above 1", "/coin_alert BTC sideways 1", "/coin_alert BTC above", "/coin_alerts",
	"/coin_chart BTC 7d", "/coin_chart BTC 9y",
}

// aCardsTitle is an inline card's title, "Coin BTC": the market's name
// and a symbol read the same in both languages.
func aCardsTitle(s string) bool {
	f := strings.Fields(s)
	return len(f) == 2 && f[0] == "Coin" && strings.ToUpper(f[1]) == f[1]
}

// A Vietnamese reader walking every coin command and button, in a private
// chat and in a group, reads no English (apptest.ReadsNoEnglish).
func TestAVietnameseReaderWalksTheCoinMarketAndReadsNoEnglish(t *testing.T) {
	newBot := func(t *testing.T) *apptest.Bot { b, _, _ := setup(t); return b }
	apptest.WalkReadsNoEnglish(t, newBot, "coin", walkInputs, []string{"btc", "nosuch"}, aCardsTitle)
}
