package gold

import (
	"cmp"
	"encoding/base64"
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
)

// fakeSources serves VNAppMob (a key endpoint and the SJC price behind a
// bearer token) and ExchangeRate-API's open rates.
type fakeSources struct {
	mu         sync.Mutex
	keys       int  // keys handed out
	revoked    bool // refuse the current key once
	sjcDown    bool
	ratesDown  bool
	spotDown   bool
	wrongPair  bool // Binance answers for another pair than PAXGUSDT
	sjcBuy     string
	sjcSell    string // VNAppMob's buy_1l and sell_1l, when not the recorded ones
	sjcCalls   int
	validKey   string
	keyExpires time.Time
}

func jwt(exp time.Time, n int) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
		enc([]byte(fmt.Sprintf(`{"exp":%d,"iat":%d,"scope":"gold","permission":0}`, exp.Unix(), n))) + ".sig"
}

func (f *fakeSources) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/vnappmob/api/request_api_key":
		if r.URL.Query().Get("scope") != "gold" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f.keys++
		f.validKey = jwt(f.keyExpires, f.keys)
		_ = json.NewEncoder(w).Encode(map[string]string{"results": f.validKey})
	case "/vnappmob/api/v2/gold/sjc":
		f.sjcCalls++
		if f.sjcDown {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+f.validKey || f.revoked {
			f.revoked = false
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Auth Error: Signature has expired"}`))
			return
		}
		buy, sell := cmp.Or(f.sjcBuy, "84500000.00"), cmp.Or(f.sjcSell, "86500000.00")
		_, _ = w.Write([]byte(`{"results":[{"buy_1c":8450000.0,"buy_1l":` + buy + `,"buy_nhan1c":8300000.0,"datetime":"1764400000","sell_1c":8652000.0,"sell_1l":` + sell + `,"sell_nhan1c":8500000.0}]}`))
	case "/erapi/v6/latest/USD":
		if f.ratesDown {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write(recorded("erapi_latest_usd.json"))
	case "/binance/api/v3/ticker/price":
		switch {
		case f.spotDown:
			w.WriteHeader(http.StatusServiceUnavailable)
		case f.wrongPair:
			_, _ = w.Write([]byte(`{"symbol":"PAXGBTC","price":"0.04200000"}`))
		case r.URL.Query().Get("symbol") == "PAXGUSDT":
			_, _ = w.Write(recorded("binance_paxgusdt.json"))
		default:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"code":-1121,"msg":"Invalid symbol."}`))
		}
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

func setup(t *testing.T) (*apptest.Bot, *fakeSources, *apptest.Clock) {
	f := &fakeSources{keyExpires: apptest.T0.Add(15 * 24 * time.Hour)}
	b, clk := apptest.NewModule(t, factory, apptest.FakeAPIs(t, f, map[string]string{
		settingVNAppMob: "/vnappmob", settingERAPI: "/erapi", trading.BinanceURL.Name: "/binance",
	}))
	return b, f, clk
}

func TestATradingSession(t *testing.T) {
	b, _, _ := setup(t)
	steps := []apptest.Step{
		{"/gold_price", "Gold per luong: buy 84,500,000 VND, sell 86,500,000 VND (SJC via VNAppMob)"},
		{"/gold_topup 100000000", "Topped up 100,000,000 VND. Cash: 100,000,000 VND."},
		{"/gold_buy 1.1", "Bought 1.1 luong at 86,500,000 VND for 95,150,000 VND. Cash: 4,850,000 VND."},
		{"/gold_buy 0.1", "Not done: not enough cash: 8650000 needed, 4850000 available."},
		{"/gold_buy 0.05", "Not done: too many decimal places: at most 1 (luong, to the chi: e.g. 0.5)."},
		{"/gold_sell 0.5", "Sold 0.5 luong at 84,500,000 VND for 42,250,000 VND. Cash: 47,100,000 VND."},
		{"/gold_stats", "0.6 luong: 50,700,000 VND (cost 51,900,000 VND, P/L -1,200,000 VND)\nCash: 47,100,000 VND\nTotal: 97,800,000 VND (invested 100,000,000 VND, P/L -2,200,000 VND)"},
		{"/gold_sell all", "Sold 0.6 luong at 84,500,000 VND for 50,700,000 VND. Cash: 97,800,000 VND."},
		{"/gold_sell 1", "Not done: not enough of that holding: you hold 0."},
	}
	b.Converse(apptest.Group, apptest.User, steps)
}

func TestTheKeyIsCachedRefreshedAndRenewedWhenRefused(t *testing.T) {
	b, f, clk := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/gold_price")
	clk.Add(2 * time.Minute) // past the price cache, well within the key's life
	b.MustSay(apptest.Group, apptest.User, "/gold_price")
	if f.keys != 1 {
		t.Fatalf("%d keys fetched, want the cached one reused", f.keys)
	}
	clk.Add(14*24*time.Hour + time.Hour) // less than a day of the key's life left
	f.mu.Lock()
	f.keyExpires = clk.Now().Add(15 * 24 * time.Hour) // the next key lives 15 days from now
	f.mu.Unlock()
	b.MustSay(apptest.Group, apptest.User, "/gold_price")
	if f.keys != 2 {
		t.Fatalf("%d keys fetched, want a refresh before expiry", f.keys)
	}
	clk.Add(2 * time.Minute)
	f.revoked = true
	b.MustSay(apptest.Group, apptest.User, "/gold_price")
	if f.keys != 3 || !strings.Contains(b.Last(), "SJC via VNAppMob") {
		t.Fatalf("a refused key must be renewed once: %d keys, reply %q", f.keys, b.Last())
	}
}

func TestWorldSpotIsTheFallback(t *testing.T) {
	b, f, _ := setup(t)
	f.sjcDown = true
	// PAXG $4,433.33/oz x 25,048.492735 VND/USD x 37.5/31.1034768 = 133,885,636 VND per luong.
	b.Expect(apptest.Group, apptest.User, "/gold_price",
		"Gold per luong: buy 133,885,636 VND, sell 133,885,636 VND (world spot)\nworld spot $4433.33/oz x 25048 VND/USD x 37.5/31.1035 oz per luong")
}

// An SJC price no luong can have, on either side, is VNAppMob's failure:
// world spot stands in, as when VNAppMob is down.
func TestAnAbsurdSJCPriceIsASourceFailure(t *testing.T) {
	for _, tc := range []struct{ buy, sell string }{{"", "1e400"}, {"", "1e15"}, {"1e-10000", ""}, {"84.5", "86.5"}} {
		b, f, _ := setup(t)
		f.sjcBuy, f.sjcSell = tc.buy, tc.sell
		b.Expect(apptest.Group, apptest.User, "/gold_price",
			"Gold per luong: buy 133,885,636 VND, sell 133,885,636 VND (world spot)\nworld spot $4433.33/oz x 25048 VND/USD x 37.5/31.1035 oz per luong")
	}
}

func TestWorldSpotNeedsBothItsSources(t *testing.T) {
	tests := []struct {
		name string
		set  func(f *fakeSources)
	}{
		{"Binance down", func(f *fakeSources) { f.spotDown = true }},
		{"Binance answers for another pair", func(f *fakeSources) { f.wrongPair = true }},
		{"the exchange rates down", func(f *fakeSources) { f.ratesDown = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, _ := setup(t)
			f.sjcDown = true
			tt.set(f)
			b.Expect(apptest.Group, apptest.User, "/gold_price", "No gold price right now; every source failed. Try again later.")
		})
	}
}

func TestNoSourceIsAClearReply(t *testing.T) {
	b, f, _ := setup(t)
	f.sjcDown, f.ratesDown = true, true
	b.Expect(apptest.Group, apptest.User, "/gold_buy 1", "No gold price right now; every source failed. Try again later.")
}

// A cached key the store cannot decode is fetched again, not an outage.
func TestADamagedCachedKeyIsFetchedAgain(t *testing.T) {
	b, f, _ := setup(t)
	if err := b.Store.For("gold").Put(t.Context(), keyStoreKey, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	b.Expect(apptest.Group, apptest.User, "/gold_price", "Gold per luong: buy 84,500,000 VND, sell 86,500,000 VND (SJC via VNAppMob)")
	if f.keys != 1 {
		t.Fatalf("%d keys fetched, want one in place of the damaged", f.keys)
	}
}
