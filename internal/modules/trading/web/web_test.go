package web_test

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/modules/trading/charts"
	"github.com/miti99bot/miti99bot/internal/modules/trading/web"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

func TestBoardRouteShowsAGroupsBoardOnlyToWhoTradedThere(t *testing.T) {
	store := memory.New().For("coin")
	for user, chats := range map[int64][]int64{7: {-100}, 8: {-200}} {
		if err := store.PutJSON(t.Context(), trading.Key(user), trading.Portfolio{Name: "A", Chats: chats}); err != nil {
			t.Fatal(err)
		}
	}
	desk := &trading.Desk{Kit: &trading.Kit{},
		Quotes: &trading.Quotes{Store: store, Now: func() time.Time { return time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) }}}
	route := web.BoardRoute(desk)
	for _, tc := range []struct {
		name string
		chat string
		user int64
		want error
	}{
		{"a member who traded there", "-100", 7, nil},
		{"someone who never traded there", "-100", 8, app.ErrWebForbidden},
		{"a private chat's id is no group", "7", 7, app.ErrWebNotFound},
		{"not a number", "-100x", 7, app.ErrWebNotFound},
		{"no chat", "", 7, app.ErrWebNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := route.Handler(t.Context(), &app.WebRequest{UserID: tc.user, Query: url.Values{"chat": {tc.chat}}})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if err == nil && got.(web.WebBoard).Chat != -100 {
				t.Errorf("board %+v", got)
			}
		})
	}
	if route.Name != "board" {
		t.Errorf("route %q", route.Name)
	}
}

func TestChartRouteAnswersOnlyForWhatTheUserHoldsOrTraded(t *testing.T) {
	store := memory.New().For("coin")
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	asked := 0
	src := trading.HistorySource{Name: "fake", Bars: func(_ context.Context, sym string, p trading.Period, now time.Time) (trading.History, error) {
		asked++
		var bars []chart.Bar
		for i := range 10 {
			bars = append(bars, chart.Bar{T: now.Add(-time.Duration(10-i) * time.Hour), O: 1, H: 2, L: 0.5, C: 1.5})
		}
		return trading.History{Bars: bars, OHLC: true}, nil
	}}
	every := func(s string) (string, bool) { return s, true }
	c := &charts.Charts{Kit: &trading.Kit{Symbol: every, Periods: trading.AllPeriods, Period: trading.Day},
		Store: store, Log: slog.New(slog.DiscardHandler), Now: clock, History: []trading.HistorySource{src}}
	desk := &trading.Desk{Kit: &trading.Kit{Market: trading.Market{CashPlaces: 2, QtyPlaces: 8}}, Quotes: &trading.Quotes{Store: store, Now: clock}}
	if err := storage.UpdateJSON(t.Context(), store, trading.Key(7), func(p *trading.Portfolio, _ bool) (bool, error) {
		if err := p.TopUp(desk.Market, decimal.NewFromInt(100), now); err != nil {
			return false, err
		}
		return true, p.BuyQty(desk.Market, "BTC", decimal.NewFromInt(1), decimal.NewFromInt(10), now)
	}); err != nil {
		t.Fatal(err)
	}
	route := web.ChartRoute(desk, c)
	for _, tc := range []struct {
		name   string
		user   int64
		query  url.Values
		want   error
		period string
	}{
		{"a holding, the default period", 7, url.Values{"symbol": {"btc"}}, nil, "1d"},
		{"a holding over a week", 7, url.Values{"symbol": {"BTC"}, "period": {"7d"}}, nil, "7d"},
		{"a symbol the user never traded", 7, url.Values{"symbol": {"ETH"}}, app.ErrWebNotFound, ""},
		{"a user without a portfolio", 8, url.Values{"symbol": {"BTC"}}, app.ErrWebNotFound, ""},
		{"a period the market has not", 7, url.Values{"symbol": {"BTC"}, "period": {"5y"}}, app.ErrWebNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := route.Handler(t.Context(), &app.WebRequest{UserID: tc.user, Query: tc.query})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if err == nil {
				wc := got.(web.WebChart)
				if wc.Symbol != "BTC" || wc.Period != tc.period || len(wc.Bars) != 10 || !wc.OHLC {
					t.Errorf("chart %+v", wc)
				}
			}
		})
	}
	if asked != 2 {
		t.Errorf("the source was asked %d times for two periods; a refused request must not ask it", asked)
	}
	if _, err := route.Handler(t.Context(), &app.WebRequest{UserID: 7, Query: url.Values{"symbol": {"BTC"}}}); err != nil || asked != 2 {
		t.Errorf("a fresh chart is asked again: %v, %d asks", err, asked)
	}
	// The page moves the bars to its viewer's clock: the answer, kept or
	// fresh, gives each viewer their own offset.
	for _, tc := range []struct {
		zone *time.Location
		want int
	}{{nil, 7 * 3600}, {locale.LoadZone("UTC-03:30"), -(3*3600 + 1800)}, {locale.LoadZone("Europe/Berlin"), 3600}} {
		got, err := route.Handler(t.Context(), &app.WebRequest{UserID: 7, Query: url.Values{"symbol": {"BTC"}}, Zone: tc.zone})
		if wc, _ := got.(web.WebChart); err != nil || wc.Offset != tc.want {
			t.Errorf("in %v: offset %d, %v; want %d", tc.zone, wc.Offset, err, tc.want)
		}
	}
}

// The page's figures read as the viewer's language writes them; the
// answer's facts (an exact quantity, an amount's value) stay plain for
// any reader that checks them.
func TestAPortfoliosFiguresReadInTheViewersLanguageAndItsFactsStayPlain(t *testing.T) {
	store := memory.New().For("stock")
	at := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC) // 08:00 in Vietnam
	p := trading.Portfolio{Cash: decimal.NewFromInt(1234567), Invested: decimal.NewFromInt(2000000),
		Holdings: map[string]trading.Holding{"FPT": {Qty: decimal.NewFromInt(1500), Cost: decimal.NewFromInt(765433)}},
		History:  []trading.Trade{{At: at, Kind: "buy", Symbol: "FPT", Qty: decimal.NewFromInt(1500), Price: decimal.NewFromInt(510), Cash: decimal.NewFromInt(-765433)}}}
	if err := store.PutJSON(t.Context(), trading.Key(7), p); err != nil {
		t.Fatal(err)
	}
	desk := &trading.Desk{Kit: &trading.Kit{Name: "stock", Currency: "VND", Market: trading.Market{CashPlaces: 0}},
		Quotes: &trading.Quotes{Store: store, Now: func() time.Time { return at }}}
	for _, tt := range []struct {
		lang                  app.Lang
		zone                  *time.Location
		cash, qty, when, paid string
	}{
		{app.Vietnamese, nil, "1.234.567\u00a0₫", "1.500", "07/12/2026 08:00", "-765.433\u00a0₫"},
		{app.English, nil, "1,234,567 VND", "1,500", "07 Dec 2026 08:00", "-765,433 VND"},
		{app.English, locale.LoadZone("Europe/Berlin"), "1,234,567 VND", "1,500", "07 Dec 2026 02:00", "-765,433 VND"},
	} {
		me, err := web.Me(t.Context(), desk, 7, app.Words{Lang: tt.lang}.InZone(tt.zone))
		if err != nil {
			t.Fatal(err)
		}
		h, tr := me.Holdings[0], me.Trades[0]
		if me.Cash.Text != tt.cash || h.QtyText != tt.qty || tr.When != tt.when || tr.Cash.Text != tt.paid || tr.QtyText != tt.qty {
			t.Errorf("%s: cash %q, holding %q, trade %q at %q for %q; want %q, %q, %q, %q", tt.lang, me.Cash.Text, h.QtyText, tr.QtyText, tr.When, tr.Cash.Text, tt.cash, tt.qty, tt.when, tt.paid)
		}
		if h.Qty != "1500" || tr.Qty != "1500" || !me.Cash.Value.Equal(p.Cash) {
			t.Errorf("%s: the facts read %q, %q, %s; want 1500 and the exact cash", tt.lang, h.Qty, tr.Qty, me.Cash.Value)
		}
	}
}
