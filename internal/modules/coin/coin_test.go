package coin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// fakeMarkets serves Binance, Coinbase and CoinGecko in their own formats.
// Each can be up (answering from prices), "down" (503), "garbage" (an HTML
// page with 200), "empty" (a zero price) or "absurd" (the price absurd).
type fakeMarkets struct {
	mu     sync.Mutex
	prices map[string]string // symbol -> USD
	mode   map[string]string // provider -> mode
	calls  map[string]int
	absurd string // a parseable price no coin has: "1e400"
}

func (f *fakeMarkets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	provider := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)[0]
	f.calls[provider]++
	switch f.mode[provider] {
	case "down":
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case "garbage":
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>Access denied</body></html>"))
		return
	case "recorded": // the documented answer, for LTCBTC, whatever was asked
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(recorded("binance_ticker_price.json"))
		return
	}
	price := func(sym string) (string, bool) {
		p, ok := f.prices[strings.ToUpper(sym)]
		switch f.mode[provider] {
		case "empty":
			p = "0"
		case "absurd":
			p = f.absurd
		}
		return p, ok
	}
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	switch r.URL.Path {
	case "/binance/api/v3/ticker/price":
		sym := strings.TrimSuffix(q.Get("symbol"), "USDT")
		p, ok := price(sym)
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(recorded("binance_invalid_symbol.json"))
			return
		}
		if !strings.ContainsAny(p, ".e") {
			p += "."
		}
		if !strings.Contains(p, "e") {
			p += "000000" // Binance quotes with trailing zeros: "60000.50000000".
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"symbol": q.Get("symbol"), "price": p})
	case "/coinbase/v2/exchange-rates":
		p, ok := price(q.Get("currency"))
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errors":[{"id":"invalid_request","message":"Invalid currency (` + q.Get("currency") + `)"}]}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"currency": strings.ToUpper(q.Get("currency")), "rates": map[string]string{"USD": p, "EUR": "1"}}})
	case "/coingecko/api/v3/search":
		var coins []any
		if _, ok := price(q.Get("query")); ok {
			sym := strings.ToUpper(q.Get("query"))
			coins = append(coins,
				map[string]any{"id": "wrapped-" + strings.ToLower(sym), "symbol": sym, "market_cap_rank": 900},
				map[string]any{"id": "id-" + strings.ToLower(sym), "symbol": sym, "market_cap_rank": 3})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"coins": coins, "exchanges": []any{}, "nfts": []any{}})
	case "/coingecko/api/v3/simple/price":
		id := q.Get("ids")
		p, _ := price(strings.TrimPrefix(id, "id-"))
		fmt.Fprintf(w, `{%q:{"usd":%s}}`, id, p)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// recorded is a recorded answer from testdata (see its README).
func recorded(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return b
}

func setup(t *testing.T) (*apptest.Bot, *fakeMarkets, *apptest.Clock) {
	f := &fakeMarkets{prices: map[string]string{"BTC": "60000.5", "ETH": "3000", "PEPE": "0.00001234"}, mode: map[string]string{}, calls: map[string]int{}}
	b, clk := apptest.NewModule(t, factory, apptest.FakeAPIs(t, f, map[string]string{
		trading.BinanceURL.Name: "/binance", settingCoinbase: "/coinbase", settingCoinGecko: "/coingecko",
	}))
	return b, f, clk
}

func TestATradingSession(t *testing.T) {
	b, _, _ := setup(t)
	steps := []apptest.Step{
		{"/coin_stats", "No coin portfolio yet. Start with /coin_topup 1000."},
		{"/coin_price btc", "BTC: $60,000.50 (Binance)"},
		{"/coin_price PEPE", "PEPE: $0.00001234 (Binance)"},
		{"/coin_topup 1000", "Topped up $1,000.00. Cash: $1,000.00."},
		{"/coin_buy BTC 100", "Bought 0.00166665 BTC at $60,000.50 for $100.00. Cash: $900.00."},
		{"/coin_buy eth 250.5", "Bought 0.0835 ETH at $3,000.00 for $250.50. Cash: $649.50."},
		{"/coin_sell ETH 0.0335", "Sold 0.0335 ETH at $3,000.00 for $100.50. Cash: $750.00."},
		// At the prices they were bought at, holdings show no loss from rounding.
		{"/coin_stats", "0.00166665 BTC: $100.00 (cost $100.00, P/L $0.00)\n0.05 ETH: $150.00 (cost $150.00, P/L $0.00)\nCash: $750.00\nTotal: $1,000.00 (invested $1,000.00, P/L $0.00)"},
		{"/coin_sell BTC all", "Sold 0.00166665 BTC at $60,000.50 for $100.00. Cash: $850.00."},
	}
	b.Converse(apptest.Group, apptest.User, steps)
}

func TestBadInputChangesNothing(t *testing.T) {
	b, _, _ := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/coin_topup 100")
	tests := []apptest.Step{
		{"/coin_topup", "Not done: the amount must be a positive number."},
		{"/coin_topup 0", "Not done: the amount must be a positive number."},
		{"/coin_topup -5", "Not done: the amount must be a positive number."},
		{"/coin_topup ten", "Not done: the amount must be a positive number."},
		{"/coin_topup 1.001", "Not done: too many decimal places: at most 2."},
		{"/coin_topup 99999999999", "Not done: the amount is too large: at most 1000000000."},
		{"/coin_buy BTC", "Usage: /coin_buy <symbol> <usd>, e.g. /coin_buy BTC 100"},
		{"/coin_buy B$C 10", "Not a coin symbol: \"B$C\"."},
		{"/coin_buy NOPE 10", "Unknown coin: NOPE."},
		{"/coin_buy BTC 500", "Not done: not enough cash: 500.00 needed, 100.00 available."},
		{"/coin_sell BTC 1", "Not done: not enough of that holding: you hold 0."},
		{"/coin_sell ETH 0.000000001", "Not done: too many decimal places: at most 8."},
		{"/coin_stats @bob", "You can only see your own portfolio: /coin_stats"},
	}
	b.Converse(apptest.Group, apptest.User, tests)
	b.Expect(apptest.Group, apptest.User, "/coin_stats", "Cash: $100.00\nTotal: $100.00 (invested $100.00, P/L $0.00)")
}

func TestPricesFallThroughTheSources(t *testing.T) {
	tests := []struct {
		name  string
		modes map[string]string
		want  string
	}{
		{"Binance down: Coinbase", map[string]string{"binance": "down"}, "ETH: $3,000.00 (Coinbase)"},
		{"Binance answers HTML: Coinbase", map[string]string{"binance": "garbage"}, "ETH: $3,000.00 (Coinbase)"},
		{"a zero price is not trusted", map[string]string{"binance": "empty"}, "ETH: $3,000.00 (Coinbase)"},
		{"Binance answers for another pair: Coinbase", map[string]string{"binance": "recorded"}, "ETH: $3,000.00 (Coinbase)"},
		{"two down: CoinGecko, the top-ranked coin of the symbol", map[string]string{"binance": "down", "coinbase": "down"}, "ETH: $3,000.00 (CoinGecko)"},
		{"all down", map[string]string{"binance": "down", "coinbase": "garbage", "coingecko": "down"}, "No price for ETH right now; every source failed. Try again later."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, _ := setup(t)
			f.mode = tt.modes
			b.Expect(apptest.Group, apptest.User, "/coin_price ETH", tt.want)
		})
	}
}

func TestPricesAreCachedBriefly(t *testing.T) {
	b, f, clk := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/coin_price BTC")
	b.MustSay(apptest.Group, apptest.User, "/coin_price BTC")
	if f.calls["binance"] != 1 {
		t.Fatalf("%d Binance calls, want 1 within the cache time", f.calls["binance"])
	}
	clk.Add(time.Minute)
	b.MustSay(apptest.Group, apptest.User, "/coin_price BTC")
	if f.calls["binance"] != 2 {
		t.Fatal("a stale price must be fetched again")
	}
}

func TestOnlyHTTPSOrLoopbackSources(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://api.coinbase.com": true, "http://127.0.0.1:8080": true, "http://localhost:9": true,
		"http://api.coinbase.com": false, "ftp://x": false, "not a url": false,
	} {
		if _, err := trading.CheckURL("X", raw); (err == nil) != ok {
			t.Errorf("checkURL(%q) = %v", raw, err)
		}
	}
}

func TestRefreshButtonsEditInPlaceThroughTheQuoteCache(t *testing.T) {
	b, f, clk := setup(t)
	const chat, alice, bob = apptest.Group, 10, 11
	b.MustSay(chat, alice, "/coin_price BTC")
	if got := b.Buttons(chat); got != "[🔄 Refresh]" {
		t.Fatalf("a price reply's keyboard: %q", got)
	}
	calls := f.calls["binance"]
	data, err := b.Press(chat, bob, "🔄 Refresh") // anyone may refresh a price; the cache answers
	if err != nil || data != "coin:p:BTC" {
		t.Fatalf("refresh %q: %v", data, err)
	}
	if f.calls["binance"] != calls {
		t.Fatalf("a refresh within the cache's 30 s asked Binance again")
	}
	// Callback data comes from a client: a symbol no command would take
	// gets a toast, and no price source hears of it.
	if err := b.Handle(telegramtest.Press(chat, bob, 1, "coin:p:../../x")); err != nil {
		t.Fatal(err)
	}
	if toasts := b.Toasts(); toasts[len(toasts)-1] != "This button no longer applies." || f.calls["binance"] != calls {
		t.Fatalf("a forged symbol: toasts %q, %d Binance calls (want %d)", toasts, f.calls["binance"], calls)
	}
	f.mu.Lock()
	f.prices["BTC"] = "61000.25"
	f.mu.Unlock()
	clk.Add(time.Minute)
	if _, err := b.Press(chat, bob, "🔄 Refresh"); err != nil {
		t.Fatal(err)
	}
	edits := b.Srv.Edits()
	if len(edits) != 2 || !strings.Contains(edits[1].Text, "61,000.25") {
		t.Fatalf("after the cache expired the price is edited in: %+v", edits)
	}

	b.MustSay(chat, alice, "/coin_topup 1000")
	b.MustSay(chat, alice, "/coin_stats")
	if _, err := b.Press(chat, bob, "🔄 Refresh"); err != nil {
		t.Fatal(err)
	}
	if toasts := b.Toasts(); toasts[len(toasts)-1] != trading.NotYoursToast {
		t.Fatalf("bob refreshed alice's portfolio: toasts %q", toasts)
	}
	if _, err := b.Press(chat, alice, "🔄 Refresh"); err != nil {
		t.Fatal(err)
	}
	if toasts := b.Toasts(); toasts[len(toasts)-1] != "" {
		t.Fatalf("alice's own refresh answers silently: toasts %q", toasts)
	}
}
