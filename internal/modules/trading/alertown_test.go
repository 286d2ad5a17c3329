package trading

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// An alert fires only on its own market's price: a stand-in (another
// market's price, as world spot stands in for SJC gold) that crosses its
// level fires nothing, the alert waits and its list says why, and the
// own source's crossing, when it comes, fires it once, at its price.
func TestAnAlertFiresOnlyOnItsOwnMarketsPrice(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("gold")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	own := newTable(map[string]string{"SJC": "150000000"})
	spot := newTable(map[string]string{"SJC": "110000000"}) // ~27% under
	a := replica(s, clk, own, bot, time.Minute)
	standIn := spot.source()
	standIn.Name, standIn.StandIn = "world spot", true
	a.Desk.Quotes.Sources = append(a.Desk.Quotes.Sources, standIn)
	arm(t, a, 1, "SJC", false, "140000000", 1) // below 140M: spot is, SJC is not
	own.set("SJC", "150000000", true)          // the own source is down
	for range 3 {
		if err := a.checkThenTick(ctx); err != nil {
			t.Fatal(err)
		}
		clk.Add(time.Minute)
	}
	if len(bot.texts()) != 0 || pending(t, a, 1) != 1 {
		t.Fatalf("with only the stand-in's price: sent %q, %d pending; want nothing sent, the alert waiting", bot.texts(), pending(t, a, 1))
	}
	list, _, err := a.list(ctx, english, 1, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, "waits") || !strings.Contains(list, "Fake") || !strings.Contains(list, "world spot") {
		t.Fatalf("the list says %q; want why the alert waits: no price from its own source (Fake), world spot another market's", list)
	}
	// A price cached from the stand-in (a /price a moment ago) is no own
	// price either: the own source is asked.
	q, err := a.Desk.Quotes.Price(ctx, "SJC")
	if err != nil || q.Own() {
		t.Fatalf("price %+v, %v; want the stand-in's", q, err)
	}
	own.set("SJC", "139000000", false)
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	sent := bot.texts()
	if len(sent) != 1 || !strings.Contains(sent[0], "139,000,000.00 (Fake,") {
		t.Fatalf("after the own source crossed: sent %q; want one message at its price", sent)
	}
	list, _, err = a.list(ctx, english, 1, 1, true)
	if err != nil || strings.Contains(list, "waits") {
		t.Fatalf("the list after it fired: %q, %v", list, err)
	}
}
