package coin

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
)

// fakeHistory serves the three providers' history endpoints. ETH's prices
// are the recorded Binance klines (testdata/README.md), served in each
// provider's own shape; a provider's mode makes it "down" (503) or serve
// its short recorded answer ("recorded"); Binance's "bad:<value>" answers
// its recorded klines with the last close replaced by value ("Infinity").
type fakeHistory struct {
	mu    sync.Mutex
	mode  map[string]string
	calls map[string]int
}

// klines are the recorded ETHUSDT hourly klines, oldest first.
func klines() [][]any {
	var rows [][]any
	dec := json.NewDecoder(bytes.NewReader(recorded("binance_klines_ethusdt_1h.json")))
	dec.UseNumber()
	if err := dec.Decode(&rows); err != nil {
		panic(err)
	}
	return rows
}

func (f *fakeHistory) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	provider := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)[0]
	f.calls[provider]++
	mode := f.mode[provider]
	f.mu.Unlock()
	if mode == "down" {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	switch path := r.URL.Path; {
	case path == "/binance/api/v3/klines":
		if q.Get("symbol") != "ETHUSDT" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(recorded("binance_invalid_symbol.json"))
			return
		}
		if v, ok := strings.CutPrefix(mode, "bad:"); ok {
			rows := klines()
			rows[len(rows)-1][4] = v
			_ = json.NewEncoder(w).Encode(rows)
			return
		}
		_, _ = w.Write(recorded("binance_klines_ethusdt_1h.json"))
	case strings.HasPrefix(path, "/coinbase/api/v3/brokerage/market/products/"):
		switch {
		case mode == "recorded":
			_, _ = w.Write(recorded("coinbase_candles_btc.json"))
		case !strings.Contains(path, "/ETH-USD/"):
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"NOT_FOUND","message":"ProductID is invalid"}`))
		default: // newest first, every field a string, times in seconds
			var candles []map[string]string
			for _, k := range klines() {
				ms := k[0].(json.Number)
				sec := strings.TrimSuffix(ms.String(), "000")
				candles = append([]map[string]string{{"start": sec, "open": k[1].(string), "high": k[2].(string), "low": k[3].(string), "close": k[4].(string), "volume": k[5].(string)}}, candles...)
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"candles": candles})
		}
	case path == "/coingecko/api/v3/search":
		var coins []any
		if strings.EqualFold(q.Get("query"), "eth") || strings.EqualFold(q.Get("query"), "btc") {
			coins = append(coins, map[string]any{"id": map[bool]string{true: "ethereum", false: "bitcoin"}[strings.EqualFold(q.Get("query"), "eth")], "symbol": strings.ToUpper(q.Get("query")), "market_cap_rank": 2})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"coins": coins})
	case strings.HasSuffix(path, "/market_chart"):
		if mode == "recorded" {
			_, _ = w.Write(recorded("coingecko_market_chart_eth.json"))
			return
		}
		var prices [][]any
		for _, k := range klines() {
			prices = append(prices, []any{k[0], k[4]})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"prices": prices})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}
