package trading

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// binanceInterval is a period's kline size and count: about 100 candles
// (drawn as candles) for every period but the year's line.
var binanceInterval = map[string]struct {
	interval string
	limit    int
}{
	"1d": {"15m", 96}, "7d": {"2h", 84}, "30d": {"8h", 90}, "1y": {"3d", 122},
}

// BinanceKlines is pair's OHLC over p from GET /api/v3/klines: an array
// of [open time ms, "open", "high", "low", "close", ...] oldest first.
func BinanceKlines(ctx context.Context, c *http.Client, base, pair string, p Period, now time.Time) (History, error) {
	iv, ok := binanceInterval[p.Name]
	if !ok {
		return History{}, fmt.Errorf("binance: no interval for %s", p.Name)
	}
	u := fmt.Sprintf("%s/api/v3/klines?symbol=%s&interval=%s&limit=%d&endTime=%d",
		base, url.QueryEscape(pair), iv.interval, iv.limit, now.UnixMilli())
	var rows [][]json.RawMessage
	if err := GetJSON(ctx, c, u, "", &rows); err != nil {
		return History{}, fmt.Errorf("binance klines: %w", err)
	}
	return parseKlines(rows)
}

func parseKlines(rows [][]json.RawMessage) (History, error) {
	h := History{OHLC: true}
	for i, r := range rows {
		if len(r) < 5 {
			return History{}, fmt.Errorf("binance klines: row %d has %d fields", i, len(r))
		}
		var f [5]float64
		for j := range f {
			var v any
			if err := json.Unmarshal(r[j], &v); err != nil {
				return History{}, fmt.Errorf("binance klines: row %d: %w", i, err)
			}
			if n, ok := v.(float64); ok {
				v = strconv.FormatFloat(n, 'f', -1, 64)
			}
			x, err := Float(v)
			if err != nil {
				return History{}, fmt.Errorf("binance klines: row %d: %w", i, err)
			}
			f[j] = x
		}
		h.Bars = append(h.Bars, chart.Bar{T: time.UnixMilli(int64(f[0])).UTC(), O: f[1], H: f[2], L: f[3], C: f[4]})
	}
	return h, nil
}
