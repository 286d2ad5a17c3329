package coin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// Charts read the same providers as prices, in the same order: Binance
// klines, then Coinbase candles, then CoinGecko's market chart (a line:
// it has no OHLC).
func binanceHistory(c *http.Client, base string) trading.HistorySource {
	return trading.HistorySource{Name: "Binance", Bars: func(ctx context.Context, sym string, p trading.Period, now time.Time) (trading.History, error) {
		return trading.BinanceKlines(ctx, c, base, sym+"USDT", p, now)
	}}
}

// coinbaseGranularity is a period's candle size on Coinbase's public
// market API, which answers at most 350 candles a request.
var coinbaseGranularity = map[string]struct {
	name string
	size time.Duration
}{
	"1d": {"FIFTEEN_MINUTE", 15 * time.Minute}, "7d": {"TWO_HOUR", 2 * time.Hour},
	"30d": {"SIX_HOUR", 6 * time.Hour}, "1y": {"ONE_DAY", 24 * time.Hour},
}

const coinbaseMaxCandles = 300 // under the documented 350, for a margin

func coinbaseHistory(c *http.Client, base string) trading.HistorySource {
	return trading.HistorySource{Name: "Coinbase", Bars: func(ctx context.Context, sym string, p trading.Period, now time.Time) (trading.History, error) {
		g, ok := coinbaseGranularity[p.Name]
		if !ok {
			return trading.History{}, fmt.Errorf("coinbase: no granularity for %s", p.Name)
		}
		h := trading.History{OHLC: true}
		// A year of days is two requests: each covers at most 300 candles.
		for end := now; end.After(now.Add(-p.Span)); end = end.Add(-coinbaseMaxCandles * g.size) {
			start := max(end.Add(-coinbaseMaxCandles*g.size).Unix(), now.Add(-p.Span).Unix())
			u := fmt.Sprintf("%s/api/v3/brokerage/market/products/%s-USD/candles?start=%d&end=%d&granularity=%s",
				base, url.PathEscape(sym), start, end.Unix(), g.name)
			var r struct {
				Candles []struct{ Start, Open, High, Low, Close any } `json:"candles"`
			}
			if err := trading.Do(ctx, c, trading.Call{URL: u}, &r); err != nil {
				return trading.History{}, fmt.Errorf("coinbase candles: %w", err)
			}
			for i, k := range r.Candles {
				b, err := trading.ReadBar(k.Start, k.Open, k.High, k.Low, k.Close)
				if err != nil {
					return trading.History{}, fmt.Errorf("coinbase candles: candle %d: %w", i, err)
				}
				h.Bars = append(h.Bars, b)
			}
		}
		return h, nil
	}}
}

// geckoDays is a period as CoinGecko's market chart asks it.
var geckoDays = map[string]string{"1d": "1", "7d": "7", "30d": "30", "1y": "365"}

func coingeckoHistory(c *http.Client, base string) trading.HistorySource {
	return trading.HistorySource{Name: "CoinGecko", Bars: func(ctx context.Context, sym string, p trading.Period, _ time.Time) (trading.History, error) {
		id, err := geckoID(ctx, c, base, sym)
		if err != nil {
			return trading.History{}, err
		}
		var r struct {
			Prices [][]json.Number `json:"prices"`
		}
		u := base + "/api/v3/coins/" + url.PathEscape(id) + "/market_chart?vs_currency=usd&days=" + geckoDays[p.Name]
		if err := trading.Do(ctx, c, trading.Call{URL: u}, &r); err != nil {
			return trading.History{}, fmt.Errorf("coingecko market chart: %w", err)
		}
		var h trading.History
		for i, pt := range r.Prices {
			if len(pt) != 2 {
				return trading.History{}, fmt.Errorf("coingecko market chart: point %d has %d fields", i, len(pt))
			}
			b, err := trading.ReadBar(pt[0], pt[1], pt[1], pt[1], pt[1])
			if err != nil {
				return trading.History{}, fmt.Errorf("coingecko market chart: point %d: %w", i, err)
			}
			h.Bars = append(h.Bars, b)
		}
		return h, nil
	}}
}

// chartUSD is a price on a chart: whole dollars from $1,000, cents from
// $1, else four significant digits (PEPE's $0.00001234).
var chartUSD = chart.Format{Prefix: "$", Places: chart.Auto}
