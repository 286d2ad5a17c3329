package gold

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

func TestGoldBuyAloneAsksOnlyTheAmount(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/gold_topup 100000000", Want: "Topped up 100,000,000 VND. Cash: 100,000,000 VND."},
		{Text: "/gold_buy", Want: "How many luong? e.g. 0.5"},
		{Text: "1.1", Want: "Bought 1.1 luong at 86,500,000 VND for 95,150,000 VND. Cash: 4,850,000 VND."},
	})
}

func TestGoldABadAmountIsExplainedAndAskedAgain(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/gold_topup 100000000", Want: "Topped up 100,000,000 VND. Cash: 100,000,000 VND."},
		{Text: "/gold_buy", Want: "How many luong? e.g. 0.5"},
		{Text: "1.15", Want: `"1.15": too many decimal places: at most 1 (luong, to the chi: e.g. 0.5). How many luong? e.g. 0.5`},
		{Text: "1.1", Want: "Bought 1.1 luong at 86,500,000 VND for 95,150,000 VND. Cash: 4,850,000 VND."},
	})
}
