package trading

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"
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
	var rows [][]any
	if err := Do(ctx, c, Call{URL: u}, &rows); err != nil {
		return History{}, fmt.Errorf("binance klines: %w", err)
	}
	h := History{OHLC: true}
	for i, r := range rows {
		if len(r) < 5 {
			return History{}, fmt.Errorf("binance klines: row %d has %d fields", i, len(r))
		}
		b, err := ReadBar(r[0], r[1], r[2], r[3], r[4])
		if err != nil {
			return History{}, fmt.Errorf("binance klines: row %d: %w", i, err)
		}
		h.Bars = append(h.Bars, b)
	}
	return h, nil
}
