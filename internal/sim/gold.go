package sim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"
)

// goldAPI is what the gold module reads: VNAppMob's SJC prices behind its
// short-lived API key, and, for the world spot fallback, ExchangeRate-API's
// USD/VND (Binance's PAXG ounce moves in markets.prices). Each source
// fails in some hours of the life, drawn from the seed: VNAppMob refuses a
// key it revoked, answers 503 or no price; the exchange rate answers 429
// or an error result; Binance limits the rate.
type goldAPI struct {
	sjc  []float64 // the shops' sell price per luong, per hour of the life
	vnd  []float64 // VND per USD, per hour (moved once a day)
	down map[string][]bool
	// rates is the recorded ExchangeRate-API answer (gold/testdata): each
	// day's answer is it with the day's VND rate and times.
	rates map[string]any
}

// spotSymbol is gold's world spot on Binance: PAXG against USDT.
const spotSymbol = "PAXG"

// sjcSpread is what a shop buys back under its sell price, per luong.
const sjcSpread = 2_000_000

func newGoldAPI(seed uint64, start time.Time, hours int) *goldAPI {
	g := &goldAPI{
		sjc: walk(seed, 0x676f6c6400, 86_500_000, hours, 0.003, nil),
		vnd: walk(seed, 0x676f6c6401, 25048.492735, hours, 0.002, func(h int) bool { return h%24 == 0 }),
		down: map[string][]bool{
			"vnappmob": flaky(seed, 0x676f6c6402, hours, 60), "revoked": flaky(seed, 0x676f6c6403, hours, 30),
			"erapi": flaky(seed, 0x676f6c6404, hours, 50), "binance": flaky(seed, 0x676f6c6405, hours, 40),
		},
	}
	raw, err := os.ReadFile("../modules/gold/testdata/erapi_latest_usd.json")
	if err != nil {
		panic(fmt.Sprintf("sim: the recorded exchange rates: %v", err))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&g.rates); err != nil {
		panic(fmt.Sprintf("sim: the recorded exchange rates: %v", err))
	}
	return g
}

// serveGold answers the gold module's calls; false: not one of them.
func (m *markets) serveGold(w http.ResponseWriter, r *http.Request) bool {
	g, h, now := m.gold, m.hour(), m.now()
	switch r.URL.Path {
	case "/vnappmob/api/request_api_key":
		// A JWT as VNAppMob's, living 15 days: iat tells a revoked key.
		claims := fmt.Sprintf(`{"exp":%d,"iat":%d,"scope":%q,"permission":0}`, now.Add(15*24*time.Hour).Unix(), now.Unix(), r.URL.Query().Get("scope"))
		enc := base64.RawURLEncoding.EncodeToString
		_ = json.NewEncoder(w).Encode(map[string]string{"results": enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(claims)) + ".sig"})
	case "/vnappmob/api/v2/gold/sjc":
		exp, iat, ok := keyTimes(r.Header.Get("Authorization"))
		hourBegan := m.start.Add(time.Duration(h) * time.Hour)
		switch {
		case !ok || !now.Before(exp) || g.down["revoked"][h] && iat.Before(hourBegan):
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Auth Error: Signature has expired"}`))
		case g.down["vnappmob"][h] && h%2 == 0:
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
		case g.down["vnappmob"][h]:
			_, _ = w.Write([]byte(`{"results":[]}`))
		default:
			sell := math.Round(g.sjc[h]/100_000) * 100_000
			buy := sell - sjcSpread
			fmt.Fprintf(w, `{"results":[{"buy_1c":%.1f,"buy_1l":%.2f,"buy_nhan1c":%.1f,"datetime":"%d","sell_1c":%.1f,"sell_1l":%.2f,"sell_nhan1c":%.1f}]}`,
				buy/10, buy, buy/10-150_000, now.Unix(), sell/10, sell, sell/10-150_000)
		}
	case "/erapi/v6/latest/USD":
		m.exchangeRates(w, h)
	default:
		return false
	}
	return true
}

// exchangeRates is the recorded answer with the rate of hour h's day, or
// that hour's failure: a 429, or an error result in a 200.
func (m *markets) exchangeRates(w http.ResponseWriter, h int) {
	g := m.gold
	if g.down["erapi"][h] {
		if h%2 == 0 {
			w.WriteHeader(http.StatusTooManyRequests)
		}
		_, _ = w.Write([]byte(`{"result":"error","error-type":"rate-limited"}`))
		return
	}
	day := m.start.Add(time.Duration(h) * time.Hour).Truncate(24 * time.Hour).Add(151 * time.Second) // 00:02:31, as recorded
	body := map[string]any{}
	for k, v := range g.rates {
		body[k] = v
	}
	rates := map[string]any{}
	for k, v := range g.rates["rates"].(map[string]any) {
		rates[k] = v
	}
	rates["VND"] = json.Number(fmt.Sprintf("%.6f", g.vnd[h]))
	body["rates"] = rates
	body["time_last_update_unix"], body["time_last_update_utc"] = day.Unix(), day.Format(time.RFC1123Z)
	body["time_next_update_unix"], body["time_next_update_utc"] = day.Add(24*time.Hour).Unix(), day.Add(24*time.Hour).Format(time.RFC1123Z)
	_ = json.NewEncoder(w).Encode(body)
}

// keyTimes reads the expiry and issue time of a bearer key.
func keyTimes(auth string) (exp, iat time.Time, ok bool) {
	parts := strings.Split(strings.TrimPrefix(auth, "Bearer "), ".")
	if len(parts) != 3 {
		return exp, iat, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var c struct{ Exp, Iat int64 }
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return exp, iat, false
	}
	return time.Unix(c.Exp, 0), time.Unix(c.Iat, 0), true
}

// gold is a gold command from user, on gold's own portfolio: top-ups in
// whole dong, buys and sells by the luong to the chi (and past it, which
// is refused), stats and price. Its draws are the markets' stream's.
func (l *life) gold(user int64, plain func(string) command, r *rand.Rand) command {
	var c command
	switch x := r.IntN(20); {
	case x < 4:
		c = plain(fmt.Sprintf("/gold_topup %d", (10+r.IntN(400))*1_000_000+r.IntN(1000)*1000))
	case x < 10:
		c = plain("/gold_buy " + []string{"0.1", "0.5", "1", "2.5", "0.05", "3"}[r.IntN(6)])
	case x < 14:
		c = plain("/gold_sell " + []string{"all", "0.1", "0.3", "1", "0.25"}[r.IntN(5)])
	case x < 17:
		c = plain("/gold_stats")
	default:
		c = plain("/gold_price")
	}
	c.after = l.traded(book{"gold", user})
	return c
}
