package stock

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

func TestAtBotFPTOffersTheStocksPriceCard(t *testing.T) {
	b, f, _ := setup(t)
	a := b.Inline(apptest.User, "FPT")
	if len(a.Results) != 1 {
		t.Fatalf("results %+v, want FPT's card", a.Results)
	}
	for _, want := range []string{"FPT: 71,000 VND (KBS)", "Price at 19:00 ICT", "/stock_chart FPT"} {
		if !strings.Contains(a.Results[0].Text, want) {
			t.Errorf("card %q lacks %q", a.Results[0].Text, want)
		}
	}
	calls := f.calls["kbs"]
	b.Inline(apptest.User, "fpt")
	b.Inline(apptest.Admin, "FPT")
	if f.calls["kbs"] != calls {
		t.Fatalf("KBS asked %d times more within the cache", f.calls["kbs"]-calls)
	}
}

func TestAWordThatIsNoTickerAsksNoBroker(t *testing.T) {
	b, f, _ := setup(t)
	for _, q := range []string{"wordle", "gold", "hello"} {
		if a := b.Inline(apptest.User, q); len(a.Results) != 0 {
			t.Fatalf("%s: results %+v", q, a.Results)
		}
	}
	if n := f.calls["kbs"] + f.calls["vci"] + f.calls["ssi"]; n != 0 {
		t.Fatalf("the brokers were asked %d times about words", n)
	}
}
