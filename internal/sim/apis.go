package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// markets is the fake world outside Telegram the modules call: Binance's
// ticker with prices that move every hour, the LoL esports schedule with
// its match days, the gold shops' and the exchange rate's APIs (gold.go)
// and the brokers' (brokers.go). All answer from the simulated clock, so
// the same seed sees the same prices, matches and outages; the answers have
// the shape of the recorded real ones (coin/testdata, gold/testdata,
// stock/testdata, lolschedule's fake).
type markets struct {
	now     func() time.Time
	start   time.Time
	prices  map[string][]float64 // symbol -> price per hour of the life
	matches map[string][]string  // ICT day "2006-01-02" -> match start times (UTC, RFC 3339)
	gold    *goldAPI
	stock   *brokers

	mu   sync.Mutex
	down int // > 0: that many schedule calls answer 503
}

// symbols are the coins users trade, and gold's world spot (PAXG, an
// ounce: the recorded answer's price); their first prices are about real
// ones.
var symbols = map[string]float64{"BTC": 90000, "ETH": 3000, "DOGE": 0.15, spotSymbol: 4433.33}

// walk is a price moving by a seeded step each hour of the life (each
// hour moves says it does; nil: every hour), on its own stream of the
// seed: a longer life starts as the shorter one of the same seed did.
func walk(seed, stream uint64, p float64, hours int, step float64, moves func(h int) bool) []float64 {
	r := rand.New(rand.NewPCG(seed, stream))
	out := make([]float64, hours)
	for h := range out {
		if moves == nil || moves(h) {
			p *= math.Exp(r.NormFloat64() * step)
		}
		out[h] = p
	}
	return out
}

// flaky draws, for each hour of the life, whether a source answers it
// with an error (perMille of the hours), on its own stream of the seed.
func flaky(seed, stream uint64, hours, perMille int) []bool {
	r := rand.New(rand.NewPCG(seed, stream))
	out := make([]bool, hours)
	for h := range out {
		out[h] = r.IntN(1000) < perMille
	}
	return out
}

// hour is the hour of the life now, within the drawn ones.
func (m *markets) hour() int {
	h := int(m.now().Sub(m.start) / time.Hour)
	return min(max(h, 0), len(m.prices["BTC"])-1)
}

const scheduleKey = "sim-key"

func newMarkets(seed uint64, now func() time.Time, start time.Time, days int) *markets {
	m := &markets{now: now, start: start, prices: map[string][]float64{}, matches: map[string][]string{}}
	hours := (days + 2) * 24
	for i, sym := range []string{"BTC", "DOGE", "ETH", spotSymbol} {
		m.prices[sym] = walk(seed, 0x707269636573+uint64(i), symbols[sym], hours, 0.01, nil)
	}
	m.gold = newGoldAPI(seed, start, hours)
	m.stock = newBrokers(seed, start, hours)
	r := rand.New(rand.NewPCG(seed, 0x6d617463686573))
	for d := -3; d < days+3; d++ {
		if r.IntN(10) >= 6 {
			continue // no matches that day
		}
		day := start.AddDate(0, 0, d)
		for i := range 1 + r.IntN(3) {
			at := time.Date(day.Year(), day.Month(), day.Day(), 8+2*i, 0, 0, 0, time.UTC) // 15:00 ICT on
			m.matches[ictDay(at)] = append(m.matches[ictDay(at)], at.Format(time.RFC3339))
		}
	}
	return m
}

// ictDay is t's day in Vietnam, where the push's day is counted.
func ictDay(t time.Time) string { return t.In(ict).Format("2006-01-02") }

var ict = time.FixedZone("ICT", 7*3600)

// price is sym's price now, as Binance writes it.
func (m *markets) price(sym string) (string, bool) {
	walk, ok := m.prices[sym]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%.8f", walk[m.hour()]), true
}

func (m *markets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/v3/ticker/price":
		pair := r.URL.Query().Get("symbol")
		if pair == spotSymbol+"USDT" && m.gold.down["binance"][m.hour()] {
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"code":-1003,"msg":"Too many requests; current limit is 6000 request weight per 1 MINUTE."}`))
			return
		}
		p, ok := m.price(strings.TrimSuffix(pair, "USDT"))
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"code":-1121,"msg":"Invalid symbol."}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"symbol": pair, "price": p})
	case "/persisted/gw/getSchedule":
		m.schedule(w, r)
	default:
		if !m.serveGold(w, r) && !m.serveBrokers(w, r) {
			w.WriteHeader(http.StatusNotFound)
		}
	}
}

// failSchedule makes the next n schedule calls answer 503.
func (m *markets) failSchedule(n int) { m.mu.Lock(); m.down += n; m.mu.Unlock() }

// schedule answers getSchedule with one page holding every match of the
// life, in time order.
func (m *markets) schedule(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	failing := m.down > 0
	if failing {
		m.down--
	}
	m.mu.Unlock()
	if r.Header.Get("x-api-key") != scheduleKey || failing {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
		return
	}
	var events []map[string]any
	for d := -3; d < len(m.prices["BTC"])/24+3; d++ {
		for _, at := range m.matches[ictDay(m.start.AddDate(0, 0, d).Add(12*time.Hour))] {
			if len(events) > 0 && events[len(events)-1]["startTime"] == at {
				continue
			}
			events = append(events, event(at))
		}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"schedule": map[string]any{
		"pages": map[string]any{"older": nil, "newer": nil}, "events": events}}})
}

// event is a match as the API sends one (lolschedule's fake_test shape).
func event(start string) map[string]any {
	team := func(code string) map[string]any {
		return map[string]any{"name": code + " Esports", "code": code, "result": map[string]any{"outcome": nil, "gameWins": 0}}
	}
	return map[string]any{
		"startTime": start, "state": "unstarted", "type": "match", "blockName": "Week 1",
		"league": map[string]any{"name": "LCK", "slug": "lck"},
		"match": map[string]any{"id": start, "teams": []any{team("T1"), team("GEN")},
			"strategy": map[string]any{"type": "bestOf", "count": 3}},
	}
}

// matchDay says whether day (ICT) has matches: the push goes out then.
func (m *markets) matchDay(day string) bool { return len(m.matches[day]) > 0 }
