package stock

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
)

func setup(t *testing.T) (*apptest.Bot, *fakeBrokers, *apptest.Clock) {
	f := newFakeBrokers()
	b, clk := apptest.NewModule(t, factory, apptest.FakeAPIs(t, f, map[string]string{
		settingKBS: "/kbs", settingVCI: "/vci", settingSSI: "/ssi",
	}))
	return b, f, clk
}

func TestATradingSessionWithDividends(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.Group, apptest.User, []apptest.Step{
		{"/stock_stats", "No stock portfolio yet. Start with /stock_topup 100000000."},
		{"/stock_price fpt", "FPT: 71,000 VND (KBS)"},
		{"/stock_price E1VFVN30", "E1VFVN30: 25,430 VND (KBS)"},
		{"/stock_topup 100000000", "Topped up 100,000,000 VND. Cash: 100,000,000 VND."},
		{"/stock_buy FPT 300", "Bought 300 FPT at 71,000 VND for 21,300,000 VND. Cash: 78,700,000 VND."},
		{"/stock_buy vnm 100", "Bought 100 VNM at 61,500 VND for 6,150,000 VND. Cash: 72,550,000 VND."},
		// 15 bonus shares per 100: an odd lot.
		{"/stock_income_stock FPT 45", "Recorded a stock dividend of 45 FPT. You hold 345 FPT."},
		{"/stock_income_vnd FPT 600000", "Recorded a cash dividend of 600,000 VND on FPT. Cash: 73,150,000 VND."},
		// The cost basis leaves pro rata: 21,300,000 x 100/345 = 6,173,913.
		{"/stock_sell FPT 100", "Sold 100 FPT at 71,000 VND for 7,100,000 VND. Cash: 80,250,000 VND."},
		// P/L = the cash dividend + the bonus shares' value: 600,000 + 45 x 71,000.
		{"/stock_stats", "245 FPT: 17,395,000 VND (cost 15,126,087 VND, P/L 2,268,913 VND)\n" +
			"100 VNM: 6,150,000 VND (cost 6,150,000 VND, P/L 0 VND)\n" +
			"Cash: 80,250,000 VND\nTotal: 103,795,000 VND (invested 100,000,000 VND, P/L 3,795,000 VND)"},
		// "all" sells the odd lot too.
		{"/stock_sell fpt all", "Sold 245 FPT at 71,000 VND for 17,395,000 VND. Cash: 97,645,000 VND."},
	})
}

func TestBadInputChangesNothing(t *testing.T) {
	b, _, _ := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/stock_topup 10000000")
	b.MustSay(apptest.Group, apptest.User, "/stock_buy VNM 100")
	tests := []apptest.Step{
		{"/stock_topup", "Not done: the amount must be a positive number."},
		{"/stock_topup -5", "Not done: the amount must be a positive number."},
		{"/stock_topup 1.5", "Not done: too many decimal places: at most 0."},
		{"/stock_topup 9999999999999", "Not done: the amount is too large: at most 1000000000000."},
		{"/stock_price", "Usage: /stock_price <ticker>, e.g. /stock_price FPT"},
		{"/stock_price F$T", "Usage: /stock_price <ticker>, e.g. /stock_price FPT"},
		{"/stock_buy FPT", "Usage: /stock_buy <ticker> <shares>, e.g. /stock_buy FPT 100"},
		{"/stock_buy FPT 100 200", "Usage: /stock_buy <ticker> <shares>, e.g. /stock_buy FPT 100"},
		{"/stock_buy F$T 100", "Not a ticker: \"F$T\"."},
		{"/stock_buy FPT 0", "Not done: the amount must be a positive number (whole shares)."},
		{"/stock_buy FPT many", "Not done: the amount must be a positive number (whole shares)."},
		{"/stock_buy FPT 100.5", "Not done: too many decimal places: at most 0 (whole shares)."},
		{"/stock_buy FPT 99999999999", "Not done: the amount is too large: at most 1000000000 (whole shares)."},
		{"/stock_buy FPT 150", "Not done: the quantity must be a whole number of lots of 100."},
		{"/stock_buy NOPE 100", "Unknown ticker: NOPE."},
		{"/stock_buy FPT 100", "Not done: not enough cash: 7100000 needed, 3850000 available."},
		{"/stock_sell FPT 100", "Not done: not enough of that holding: you hold 0."},
		{"/stock_sell VNM 200", "Not done: not enough of that holding: you hold 100."},
		{"/stock_sell VNM 50", "Not done: the quantity must be a whole number of lots of 100."},
		{"/stock_sell VNM half", "Not done: the amount must be a positive number (whole shares)."},
		{"/stock_income_stock FPT 10", "Not done: not enough of that holding: you hold no FPT."},
		{"/stock_income_stock VNM -10", "Not done: the amount must be a positive number (whole shares)."},
		{"/stock_income_vnd FPT 1000", "Not done: not enough of that holding: you hold no FPT."},
		{"/stock_income_vnd VNM 0.5", "Not done: too many decimal places: at most 0."},
		{"/stock_income_vnd VNM", "Usage: /stock_income_vnd <ticker> <vnd received>, e.g. /stock_income_vnd FPT 200000"},
		{"/stock_stats @bob", "You can only see your own portfolio: /stock_stats"},
	}
	b.Converse(apptest.Group, apptest.User, tests)
	b.Expect(apptest.Group, apptest.User, "/stock_stats",
		"100 VNM: 6,150,000 VND (cost 6,150,000 VND, P/L 0 VND)\nCash: 3,850,000 VND\nTotal: 10,000,000 VND (invested 10,000,000 VND, P/L 0 VND)")
}

func TestPricesFallThroughTheSources(t *testing.T) {
	tests := []struct {
		name  string
		modes map[string]string
		want  string
	}{
		{"KBS down: VCI", map[string]string{"kbs": "down"}, "VNM: 61,500 VND (VCI)"},
		{"KBS rate-limited: VCI", map[string]string{"kbs": "limited"}, "VNM: 61,500 VND (VCI)"},
		{"KBS answers HTML: VCI", map[string]string{"kbs": "garbage"}, "VNM: 61,500 VND (VCI)"},
		{"a zero price is not trusted", map[string]string{"kbs": "zero"}, "VNM: 61,500 VND (VCI)"},
		{"a price in thousands is not trusted", map[string]string{"kbs": "thousands", "vci": "thousands"}, "VNM: 61,500 VND (SSI)"},
		{"two down: SSI", map[string]string{"kbs": "down", "vci": "garbage"}, "VNM: 61,500 VND (SSI)"},
		{"an absurd price is a failure", map[string]string{"kbs": "absurd", "vci": "absurd"}, "VNM: 61,500 VND (SSI)"},
		{"every price absurd", map[string]string{"kbs": "absurd", "vci": "absurd", "ssi": "absurd"}, "No price for VNM right now; every source failed. Try again later."},
		{"all failing", map[string]string{"kbs": "down", "vci": "limited", "ssi": "zero"}, "No price for VNM right now; every source failed. Try again later."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, _ := setup(t)
			f.mode = tt.modes
			b.Expect(apptest.Group, apptest.User, "/stock_price VNM", tt.want)
		})
	}
}

func TestAnUnknownTickerNeedsEverySourceToSaySo(t *testing.T) {
	b, f, _ := setup(t)
	f.mode = map[string]string{"ssi": "down"}
	b.Expect(apptest.Group, apptest.User, "/stock_price ZZZ", "No price for ZZZ right now; every source failed. Try again later.")
	f.mode = map[string]string{} // SSI back: nothing was remembered from the failed ask
	b.Expect(apptest.Group, apptest.User, "/stock_price ZZZ", "Unknown ticker: ZZZ.")
}

func TestPricesAreCachedBriefly(t *testing.T) {
	b, f, clk := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/stock_price FPT")
	b.MustSay(apptest.Group, apptest.User, "/stock_price FPT")
	if f.calls["kbs"] != 1 {
		t.Fatalf("%d KBS calls, want 1 within the cache time", f.calls["kbs"])
	}
	clk.Add(2 * time.Minute)
	b.MustSay(apptest.Group, apptest.User, "/stock_price FPT")
	if f.calls["kbs"] != 2 {
		t.Fatal("a stale price must be fetched again")
	}
}

func TestSourcesMustBeHTTPSOrLoopback(t *testing.T) {
	_, err := factory.New(app.Deps{Settings: map[string]string{settingKBS: "http://kbbuddywts.kbsec.com.vn", settingVCI: "https://x", settingSSI: "https://y"}})
	if err == nil {
		t.Fatal("a plain-http price source off loopback was accepted")
	}
}
