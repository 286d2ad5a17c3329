package gold

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

func TestAtBotGoldOffersTheSJCCard(t *testing.T) {
	b, _, _ := setup(t)
	for _, q := range []string{"gold", "SJC"} {
		a := b.Inline(apptest.User, q)
		if len(a.Results) != 1 {
			t.Fatalf("%s: results %+v, want the SJC card", q, a.Results)
		}
		for _, want := range []string{"Gold per luong: buy 84,500,000 VND, sell 86,500,000 VND (SJC via VNAppMob)", "Price at 19:00 ICT", "/gold_chart"} {
			if !strings.Contains(a.Results[0].Text, want) {
				t.Errorf("%s: card %q lacks %q", q, a.Results[0].Text, want)
			}
		}
	}
	if a := b.Inline(apptest.User, "FPT"); len(a.Results) != 0 {
		t.Fatalf("FPT: results %+v, want no gold card", a.Results)
	}
}
