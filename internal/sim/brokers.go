package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"
)

// brokers are the stock module's price sources in their wire formats: KB
// Securities' daily bars (the recorded answer in stock/testdata is the
// template), Vietcap's gap-chart and SSI iBoard's quote (the shapes of
// stock's fake_test). Prices move in the exchanges' trading hours only
// (09:00 to 15:00 ICT on weekdays): a weekend or a night answers the last
// close. A ticker not listed is unknown to all three; each source fails in
// some hours of the life, drawn from the seed.
type brokers struct {
	start  time.Time
	prices map[string][]int64 // ticker -> whole VND per hour of the life
	down   map[string][]bool  // kbs | vci | ssi -> the hours it fails
}

// tickers are the listed stocks the life trades, at about real prices (VND
// at the recorded bar's close); stock's fake knows the others.
var tickers = map[string]float64{"FPT": 71000, "VNM": 61500, "VND": 16650, "E1VFVN30": 25430}

func newBrokers(seed uint64, start time.Time, hours int) *brokers {
	b := &brokers{start: start, prices: map[string][]int64{}, down: map[string][]bool{}}
	for i, sym := range []string{"E1VFVN30", "FPT", "VND", "VNM"} {
		w := walk(seed, 0x73746f636b00+uint64(i), tickers[sym], hours, 0.006, func(h int) bool { return inSession(start.Add(time.Duration(h) * time.Hour)) })
		p := make([]int64, hours)
		for h, v := range w {
			p[h] = int64(math.Round(v/50)) * 50 // the exchanges' tick
		}
		b.prices[sym] = p
	}
	for i, src := range []string{"kbs", "vci", "ssi"} {
		b.down[src] = flaky(seed, 0x73746f636b10+uint64(i), hours, []int{80, 60, 50}[i])
	}
	return b
}

// inSession says whether the exchanges trade in the hour from t (UTC).
func inSession(t time.Time) bool {
	local := t.In(ict)
	return local.Weekday() != time.Saturday && local.Weekday() != time.Sunday && local.Hour() >= 9 && local.Hour() < 15
}

// bar is one trading day's prices of a ticker up to now.
type bar struct {
	day        time.Time // 00:00 ICT
	o, h, l, c int64
	v          int64
}

// bars are sym's daily bars from the day of from to the day of to, oldest
// first: every weekday whose session opened by to (and by now).
func (b *brokers) bars(sym string, from, to time.Time, now int) []bar {
	walk, ok := b.prices[sym]
	if !ok {
		return nil
	}
	at := func(h int) int64 { return walk[min(max(h, 0), len(walk)-1)] }
	var out []bar
	for d := from.In(ict); !d.After(to); d = d.AddDate(0, 0, 1) {
		day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ict)
		open := int(day.Add(9*time.Hour).Sub(b.start) / time.Hour)
		if !inSession(day.Add(9*time.Hour)) || open > now {
			continue
		}
		br := bar{day: day, o: at(open), l: math.MaxInt64}
		for h := open; h < open+6 && h <= now; h++ {
			br.h, br.l, br.c = max(br.h, at(h)), min(br.l, at(h)), at(h)
		}
		br.v = 1_000_000 + (br.c*37)%900_000
		out = append(out, br)
	}
	return out
}

// serveBrokers answers the stock module's calls; false: not one of them.
func (m *markets) serveBrokers(w http.ResponseWriter, r *http.Request) bool {
	b, now := m.stock, m.hour()
	src, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if _, ok := b.down[src]; !ok {
		return false
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if b.down[src][now] {
		if src == "kbs" && now%2 == 1 { // a firewall's page, with a 200
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html><body>Request Blocked</body></html>"))
			return true
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	switch src {
	case "kbs":
		sym, _ := strings.CutSuffix(strings.TrimPrefix(path, "iis-server/investment/stocks/"), "/data_day")
		from, err1 := time.ParseInLocation("02-01-2006", r.URL.Query().Get("sdate"), ict)
		to, err2 := time.ParseInLocation("02-01-2006", r.URL.Query().Get("edate"), ict)
		if err1 != nil || err2 != nil {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errorCode":"4000001","message":"Invalid request"}`))
			return true
		}
		days := []map[string]any{}
		for _, br := range b.bars(sym, from, to, now) { // newest first, as KBS sends them
			days = append([]map[string]any{{"t": br.day.Format("2006-01-02") + " 07:00", "o": br.o, "h": br.h, "l": br.l, "c": br.c, "v": br.v}}, days...)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"symbol": sym, "data_day": days})
	case "vci":
		var req struct {
			Symbols   []string `json:"symbols"`
			To        int64    `json:"to"`
			CountBack int      `json:"countBack"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Symbols) != 1 || req.CountBack <= 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"status":400,"message":"Bad Request"}`))
			return true
		}
		to := time.Unix(req.To, 0)
		bars := b.bars(req.Symbols[0], to.AddDate(0, 0, -2*req.CountBack-4), to, now)
		bars = bars[max(0, len(bars)-req.CountBack):]
		if len(bars) == 0 {
			_, _ = w.Write([]byte(`[]`))
			return true
		}
		col := func(f func(bar) any) []any {
			out := make([]any, len(bars))
			for i, br := range bars {
				out[i] = f(br)
			}
			return out
		}
		_ = json.NewEncoder(w).Encode([]map[string]any{{"symbol": req.Symbols[0],
			"o": col(func(b bar) any { return b.o }), "h": col(func(b bar) any { return b.h }), "l": col(func(b bar) any { return b.l }),
			"c": col(func(b bar) any { return b.c }), "v": col(func(b bar) any { return b.v }),
			"t": col(func(b bar) any { return fmt.Sprint(b.day.Unix()) })}})
	case "ssi":
		sym := strings.TrimPrefix(path, "stock/")
		p, ok := b.prices[sym]
		if !ok {
			_, _ = w.Write([]byte(`{"code":"SUCCESS","message":"Success","data":null}`))
			return true
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"code": "SUCCESS", "message": "Success", "data": map[string]any{
			"stockSymbol": sym, "exchange": "hose", "matchedPrice": p[now], "tradingCurrencyISOCode": "VND"}})
	}
	return true
}
