package stock

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// An amount the buy would refuse before pricing (not a whole number of
// lots, not whole shares) is explained at the question, which stays open.
func TestAnAskedAmountOutsideTheLotsIsAskedAgain(t *testing.T) {
	b, _, _ := setup(t)
	ask := "FPT: How many shares? In lots of 100, e.g. 100"
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/stock_topup 100000000", Want: "Topped up 100,000,000 VND. Cash: 100,000,000 VND."},
		{Text: "/stock_buy", Want: "Which symbol? (/cancel stops)"},
		{Text: "fpt", Want: ask},
		{Text: "150", Want: `"150": the quantity must be a whole number of lots of 100. ` + ask},
		{Text: "1.5", Want: `"1.5": too many decimal places: at most 0 (whole shares). ` + ask},
		{Text: "300", Want: "Bought 300 FPT at 71,000 VND for 21,300,000 VND. Cash: 78,700,000 VND."},
	})
}
