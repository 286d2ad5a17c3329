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
// ticker with prices that move every hour, and the LoL esports schedule
// with its match days. Both answer from the simulated clock, so the same
// seed sees the same prices and matches; the answers have the shape of the
// recorded real ones (coin/testdata, lolschedule's fake).
type markets struct {
	now     func() time.Time
	start   time.Time
	prices  map[string][]float64 // symbol -> price per hour of the life
	matches map[string][]string  // ICT day "2006-01-02" -> match start times (UTC, RFC 3339)

	mu   sync.Mutex
	down int // > 0: that many schedule calls answer 503
}

// symbols are the coins users trade; their first prices are about real ones.
var symbols = map[string]float64{"BTC": 90000, "ETH": 3000, "DOGE": 0.15}

const scheduleKey = "sim-key"

func newMarkets(seed uint64, now func() time.Time, start time.Time, days int) *markets {
	m := &markets{now: now, start: start, prices: map[string][]float64{}, matches: map[string][]string{}}
	for i, sym := range []string{"BTC", "DOGE", "ETH"} {
		r := rand.New(rand.NewPCG(seed, 0x707269636573+uint64(i)))
		p, hours := symbols[sym], (days+2)*24
		walk := make([]float64, hours)
		for h := range walk {
			p *= math.Exp(r.NormFloat64() * 0.01)
			walk[h] = p
		}
		m.prices[sym] = walk
	}
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
	h := int(m.now().Sub(m.start) / time.Hour)
	h = min(max(h, 0), len(walk)-1)
	return fmt.Sprintf("%.8f", walk[h]), true
}

func (m *markets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/v3/ticker/price":
		pair := r.URL.Query().Get("symbol")
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
		w.WriteHeader(http.StatusNotFound)
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
