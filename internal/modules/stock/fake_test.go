package stock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// fakeBrokers serves KBS, VCI (Vietcap) and SSI iBoard in their own wire
// formats, refusing requests not shaped the way the real ones want them.
// Each provider can be up, "down" (503), "limited" (429 with Retry-After),
// "garbage" (an HTML page with 200), "zero" (a zero price), "thousands"
// (the price in thousands of VND, as their chart endpoints sometimes
// answer) or "absurd" (a parseable price no share has: 1e400).
type fakeBrokers struct {
	mu     sync.Mutex
	prices map[string]int64 // ticker -> VND
	mode   map[string]string
	calls  map[string]int
}

func newFakeBrokers() *fakeBrokers {
	return &fakeBrokers{
		prices: map[string]int64{"FPT": 71000, "VNM": 61500, "E1VFVN30": 25430},
		mode:   map[string]string{}, calls: map[string]int{},
	}
}

func (f *fakeBrokers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	provider, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	f.calls[provider]++
	// Their firewalls turn away a default client's agent.
	if strings.HasPrefix(r.UserAgent(), "Go-http-client") {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("Request Blocked"))
		return
	}
	switch f.mode[provider] {
	case "down":
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case "limited":
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	case "garbage":
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>Request Blocked</body></html>"))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	switch provider {
	case "kbs":
		f.kbs(w, r, path)
	case "vci":
		f.vci(w, r, path)
	case "ssi":
		f.ssi(w, r, path)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// price renders a ticker's price the way the provider's mode wants it.
func (f *fakeBrokers) price(provider, sym string) (string, bool) {
	p, ok := f.prices[sym]
	switch f.mode[provider] {
	case "zero":
		return "0", ok
	case "thousands":
		return strconv.FormatFloat(float64(p)/1000, 'f', -1, 64), ok
	case "absurd":
		return "1e400", ok
	}
	return strconv.FormatInt(p, 10), ok
}

// kbs: GET /iis-server/investment/stocks/{TICKER}/data_day?sdate=DD-MM-YYYY&edate=DD-MM-YYYY
func (f *fakeBrokers) kbs(w http.ResponseWriter, r *http.Request, path string) {
	sym, ok := strings.CutPrefix(path, "iis-server/investment/stocks/")
	sym, ok2 := strings.CutSuffix(sym, "/data_day")
	from, err1 := time.Parse("02-01-2006", r.URL.Query().Get("sdate"))
	to, err2 := time.Parse("02-01-2006", r.URL.Query().Get("edate"))
	if !ok || !ok2 || r.Method != http.MethodGet || err1 != nil || err2 != nil || !from.Before(to) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"errorCode":"4000001","message":"Invalid request"}`))
		return
	}
	p, known := f.price("kbs", sym)
	if !known {
		_, _ = w.Write([]byte(`{"data_day":[]}`))
		return
	}
	// Bars newest first, except one out of place: the order is not promised.
	fmt.Fprintf(w, `{"data_day":[{"t":"2026-11-26 07:00","o":69800,"h":70500,"l":69500,"c":70100,"v":2100300},`+
		`{"t":"2026-11-27 07:00","o":70500,"h":71300,"l":70200,"c":%s,"v":1804500},`+
		`{"t":"2026-11-25 07:00","o":69000,"h":70000,"l":68800,"c":69700,"v":1950000}]}`, p)
}

// vci: POST /api/chart/OHLCChart/gap-chart {"timeFrame","symbols","to","countBack"}
func (f *fakeBrokers) vci(w http.ResponseWriter, r *http.Request, path string) {
	var req struct {
		TimeFrame string   `json:"timeFrame"`
		Symbols   []string `json:"symbols"`
		To        int64    `json:"to"`
		CountBack int      `json:"countBack"`
	}
	err := json.NewDecoder(r.Body).Decode(&req)
	if path != "api/chart/OHLCChart/gap-chart" || r.Method != http.MethodPost || err != nil ||
		req.TimeFrame != "ONE_DAY" || len(req.Symbols) != 1 || req.To <= 0 || req.CountBack <= 0 {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"status":400,"message":"Bad Request"}`))
		return
	}
	p, known := f.price("vci", req.Symbols[0])
	if !known {
		_, _ = w.Write([]byte(`[]`))
		return
	}
	fmt.Fprintf(w, `[{"symbol":%q,"o":[69800,70500],"h":[70500,71300],"l":[69500,70200],"c":[70100,%s],`+
		`"v":[2100300,1804500],"t":["1764115200","1764201600"],"accumulatedVolume":[2100300,1804500],`+
		`"accumulatedValue":[146.9,127.6],"minBatchTruncTime":"1764115200"}]`, req.Symbols[0], p)
}

// ssi: GET /stock/{TICKER}
func (f *fakeBrokers) ssi(w http.ResponseWriter, r *http.Request, path string) {
	sym, ok := strings.CutPrefix(path, "stock/")
	if !ok || r.Method != http.MethodGet {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	p, known := f.price("ssi", sym)
	if !known {
		_, _ = w.Write([]byte(`{"code":"SUCCESS","message":"Success","data":null}`))
		return
	}
	fmt.Fprintf(w, `{"code":"SUCCESS","message":"Success","data":{"stockSymbol":%q,"exchange":"hose",`+
		`"matchedPrice":%s,"refPrice":70800,"ceiling":75700,"floor":65900,"best1Bid":70900,"best1Offer":71000,`+
		`"tradingDate":"20261127","tradingCurrencyISOCode":"VND"}}`, sym, p)
}
