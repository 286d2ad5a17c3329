package gold

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// walkInputs are what a gold trader types besides each command alone: the
// usual arguments and wrong ones, as a reader of either language would.
var walkInputs = []string{
	"/gold_price ", "/gold_buy abc", "/gold_topup 1000000000", "/gold_topup abc",
	"/gold_buy 0.5", "/gold_buy 0,5", "/gold_buy 999999999999", "/gold_sell 1.500",
	"/gold_stats", "/gold_top join", "/gold_top", "/gold_sell all", "/gold_top leave",
	"/gold_alert above 1", "/gold_alert sideways 1", "/gold_alert above", "/gold_alerts",
	"/gold_chart 7d", "/gold_chart 9y",
}

// A Vietnamese reader walking every gold command and button, in a private
// chat and in a group, reads no English (apptest.ReadsNoEnglish).
func TestAVietnameseReaderWalksTheGoldMarketAndReadsNoEnglish(t *testing.T) {
	newBot := func(t *testing.T) *apptest.Bot { b, _, _ := setup(t); return b }
	apptest.WalkReadsNoEnglish(t, newBot, "gold", walkInputs, []string{"gold", "sjc"}, nil)
}
