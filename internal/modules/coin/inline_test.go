package coin

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

func TestAtBotBTCOffersTheCoinsPriceCard(t *testing.T) {
	b, _, _ := setup(t)
	a := b.Inline(apptest.User, "btc")
	if len(a.Results) != 1 {
		t.Fatalf("results %+v, want BTC's card", a.Results)
	}
	r := a.Results[0]
	for _, want := range []string{"BTC: $60,000.50 (Binance)", "19:00 ICT", "/coin_chart BTC"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("card %q lacks %q", r.Text, want)
		}
	}
	if r.Title == "" || !strings.Contains(r.Description, "$60,000.50") {
		t.Errorf("title %q description %q: the list shows the price", r.Title, r.Description)
	}
	if a.IsPersonal || a.CacheTime < 1 || a.CacheTime > int(priceFresh/time.Second) {
		t.Errorf("personal %v cache %d: a price card is everyone's, cached no longer than the price", a.IsPersonal, a.CacheTime)
	}
}

func TestManyInlineQueriesWithinTheCacheCostOnePriceFetchPerSymbol(t *testing.T) {
	b, f, _ := setup(t)
	for range 5 {
		b.Inline(apptest.User, "btc")
		b.Inline(apptest.User, "ETH")
	}
	if n := f.calls["binance"]; n != 2 {
		t.Fatalf("%d Binance calls for ten queries of two symbols, want 2", n)
	}
}

func TestACardShowsTheChangeSinceTheDaysFirstPrice(t *testing.T) {
	b, f, clk := setup(t)
	b.Inline(apptest.User, "btc") // the day's first price: 60000.5
	f.mu.Lock()
	f.prices["BTC"] = "63000.525"
	f.mu.Unlock()
	clk.Add(time.Hour)
	r := b.Inline(apptest.User, "btc").Results[0]
	if !strings.Contains(r.Text, "+5.00% (+$3,000.03) since 19:00 ICT") {
		t.Fatalf("card %q: want the change since the day's first price", r.Text)
	}
}

func TestAnUnknownCoinOffersNoCard(t *testing.T) {
	b, _, _ := setup(t)
	if a := b.Inline(apptest.User, "NOPE"); len(a.Results) != 0 {
		t.Fatalf("results %+v, want none", a.Results)
	}
	if a := b.Inline(apptest.User, "what is this"); len(a.Results) != 0 {
		t.Fatalf("results %+v, want none for a query no symbol", a.Results)
	}
}

func TestTheEmptyInlineQueryOffersTheUsersOwnPortfolio(t *testing.T) {
	b, _, _ := setup(t)
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_buy BTC 100")
	a := b.Inline(apptest.User, "")
	if !a.IsPersonal || len(a.Results) != 1 {
		t.Fatalf("answer %+v, want the user's portfolio alone, personal", a)
	}
	if r := a.Results[0]; !strings.Contains(r.Text, "0.00166665 BTC: $100.00") || !strings.Contains(r.Text, "Total: $1,000.00") {
		t.Fatalf("summary %q", r.Text)
	}
	if err := b.Handle(b.Srv.InlineQuery(apptest.Admin, "", "sender")); err != nil {
		t.Fatal(err)
	}
	if got := b.Srv.InlineAnswers(); len(got[len(got)-1].Results) != 0 {
		t.Fatalf("another user was offered %+v", got[len(got)-1].Results)
	}
}
