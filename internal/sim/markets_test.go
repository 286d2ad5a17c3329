package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeMarkets is seed's markets at a clock the test sets.
func fakeMarkets(t *testing.T, seed uint64) (*markets, *time.Time) {
	t.Helper()
	now := new(time.Time)
	*now = Start
	return newMarkets(seed, func() time.Time { return *now }, Start, 30), now
}

func get(t *testing.T, m *markets, method, target, body string, header ...string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, req)
	out, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(out)
}

// up is an hour of the life in which none of srcs fails, after from.
func up(m *markets, from time.Time, ok func(h int) bool) time.Time {
	for t := from; ; t = t.Add(time.Hour) {
		if h := int(t.Sub(m.start) / time.Hour); ok(h) {
			return t
		}
	}
}

func TestAStockPriceMovesOnlyInTradingHoursAndEverySourceSaysTheSame(t *testing.T) {
	m, now := fakeMarkets(t, 1)
	b := m.stock
	friday := time.Date(2027, 1, 8, 7, 30, 0, 0, time.UTC) // 14:30 ICT, the last hour of the session
	*now = up(m, friday.AddDate(0, 0, 1), func(h int) bool { return !b.down["kbs"][h] && !b.down["ssi"][h] })
	if monday := friday.AddDate(0, 0, 3).Add(-6 * time.Hour); !now.Before(monday) {
		t.Fatalf("no weekend hour with KBS and SSI up: %s", now)
	}
	closed := b.prices["FPT"][int(friday.Sub(Start)/time.Hour)]
	if got := b.prices["FPT"][m.hour()]; got != closed {
		t.Fatalf("FPT on Saturday %d, Friday's close %d: a closed market moved", got, closed)
	}
	code, body := get(t, m, http.MethodGet, "/kbs/iis-server/investment/stocks/FPT/data_day?sdate=25-12-2026&edate="+now.In(ict).Format("02-01-2006"), "")
	var kbs struct {
		Symbol string `json:"symbol"`
		Bars   []struct {
			T string `json:"t"`
			C int64  `json:"c"`
		} `json:"data_day"`
	}
	if err := json.Unmarshal([]byte(body), &kbs); code != http.StatusOK || err != nil || len(kbs.Bars) == 0 {
		t.Fatalf("KBS answered %d %s (%v)", code, body, err)
	}
	if kbs.Symbol != "FPT" || kbs.Bars[0].T != "2027-01-08 07:00" || kbs.Bars[0].C != closed {
		t.Fatalf("KBS's newest bar is %+v of %s, want Friday's at %d", kbs.Bars[0], kbs.Symbol, closed)
	}
	_, body = get(t, m, http.MethodGet, "/ssi/stock/FPT", "")
	if want := `"matchedPrice":` + jsonInt(closed); !strings.Contains(body, want) {
		t.Fatalf("SSI answered %s, want %s", body, want)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestATickerNoExchangeListsIsUnknownToEverySource(t *testing.T) {
	m, now := fakeMarkets(t, 1)
	b := m.stock
	*now = up(m, Start.Add(3*time.Hour), func(h int) bool { return !b.down["kbs"][h] && !b.down["vci"][h] && !b.down["ssi"][h] })
	for _, c := range []struct{ method, target, body, want string }{
		{http.MethodGet, "/kbs/iis-server/investment/stocks/ZZZ/data_day?sdate=01-01-2027&edate=04-01-2027", "", `"data_day":[]`},
		{http.MethodPost, "/vci/api/chart/OHLCChart/gap-chart", `{"timeFrame":"ONE_DAY","symbols":["ZZZ"],"to":1799999999,"countBack":5}`, `[]`},
		{http.MethodGet, "/ssi/stock/ZZZ", "", `"data":null`},
	} {
		if code, body := get(t, m, c.method, c.target, c.body); code != http.StatusOK || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want %s", c.target, code, body, c.want)
		}
	}
}

func TestAKeyVNAppMobRevokedIsRefusedAndANewOneServes(t *testing.T) {
	m, now := fakeMarkets(t, 1)
	g := m.gold
	revoked := up(m, Start.Add(time.Hour), func(h int) bool { return g.down["revoked"][h] && !g.down["vnappmob"][h] })
	key := func() string {
		_, body := get(t, m, http.MethodGet, "/vnappmob/api/request_api_key?scope=gold", "")
		var r struct{ Results string }
		_ = json.Unmarshal([]byte(body), &r)
		return r.Results
	}
	*now = revoked.Add(-time.Minute)
	old := key()
	*now = revoked.Add(time.Minute)
	if code, body := get(t, m, http.MethodGet, "/vnappmob/api/v2/gold/sjc", "", "Authorization", "Bearer "+old); code != http.StatusForbidden {
		t.Fatalf("a key issued before the hour its keys were revoked: %d %s", code, body)
	}
	code, body := get(t, m, http.MethodGet, "/vnappmob/api/v2/gold/sjc", "", "Authorization", "Bearer "+key())
	if code != http.StatusOK || !strings.Contains(body, `"sell_1l":`) {
		t.Fatalf("a new key: %d %s", code, body)
	}
	*now = revoked.Add(16 * 24 * time.Hour)
	if code, _ := get(t, m, http.MethodGet, "/vnappmob/api/v2/gold/sjc", "", "Authorization", "Bearer "+old); code != http.StatusForbidden {
		t.Fatalf("an expired key: %d", code)
	}
}

func TestTheSameSeedSeesTheSameMarkets(t *testing.T) {
	a, _ := fakeMarkets(t, 5)
	b, _ := fakeMarkets(t, 5)
	c, _ := fakeMarkets(t, 6)
	h := 24*5 + 3
	if a.gold.sjc[h] != b.gold.sjc[h] || a.stock.prices["VNM"][h] != b.stock.prices["VNM"][h] || a.prices[spotSymbol][h] != b.prices[spotSymbol][h] {
		t.Fatal("one seed, two markets")
	}
	if a.gold.sjc[h] == c.gold.sjc[h] {
		t.Fatal("seeds 5 and 6 see the same gold price")
	}
}
