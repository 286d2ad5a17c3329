package stock

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// The sources sit behind web application firewalls that turn away
// clients without a browser-like agent.
var browserish = http.Header{"User-Agent": {"Mozilla/5.0 (compatible; miti99bot)"}}

// ict is Vietnam's time zone (no daylight saving), fixed so the binary needs
// no tz database.
var ict = time.FixedZone("ICT", 7*3600)

// kbs reads the daily bars of KB Securities and takes the close of the
// latest one; two weeks back covers weekends and Tet.
func kbs(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "KBS", Price: func(ctx context.Context, sym string, now time.Time) (decimal.Decimal, error) {
		day := func(t time.Time) string { return t.In(ict).Format("02-01-2006") }
		u := fmt.Sprintf("%s/iis-server/investment/stocks/%s/data_day?sdate=%s&edate=%s",
			base, url.PathEscape(sym), day(now.AddDate(0, 0, -14)), day(now))
		var r struct {
			Bars []kbsBar `json:"data_day"`
		}
		if err := trading.Do(ctx, c, trading.Call{URL: u, Header: browserish}, &r); err != nil {
			return decimal.Zero, err
		}
		if len(r.Bars) == 0 {
			return decimal.Zero, trading.ErrUnknown
		}
		// Newest first in practice, but the order is not promised.
		latest := slices.MaxFunc(r.Bars, func(a, b kbsBar) int { return cmp.Compare(a.T, b.T) })
		return wholeVND(latest.C)
	}}
}

type kbsBar struct {
	T string      `json:"t"` // "2026-11-27 07:00": sorts as text
	C json.Number `json:"c"`
}

// vci reads Vietcap's daily OHLC chart and takes the last close.
func vci(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "VCI", Price: func(ctx context.Context, sym string, now time.Time) (decimal.Decimal, error) {
		body := map[string]any{"timeFrame": "ONE_DAY", "symbols": []string{sym}, "to": now.Unix(), "countBack": 5}
		var r []struct {
			Symbol string        `json:"symbol"`
			C      []json.Number `json:"c"`
		}
		call := trading.Call{Method: http.MethodPost, URL: base + "/api/chart/OHLCChart/gap-chart", Header: browserish, Body: body}
		if err := trading.Do(ctx, c, call, &r); err != nil {
			return decimal.Zero, err
		}
		if len(r) == 0 || len(r[0].C) == 0 {
			return decimal.Zero, trading.ErrUnknown
		}
		if r[0].Symbol != "" && !strings.EqualFold(r[0].Symbol, sym) {
			return decimal.Zero, fmt.Errorf("asked for %s, answered %s", sym, r[0].Symbol)
		}
		return wholeVND(r[0].C[len(r[0].C)-1])
	}}
}

// ssi reads SSI iBoard's quote of one stock: the last matched price.
func ssi(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "SSI", Price: func(ctx context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		var r struct {
			Data *struct {
				StockSymbol  string      `json:"stockSymbol"`
				MatchedPrice json.Number `json:"matchedPrice"`
			} `json:"data"`
		}
		if err := trading.Do(ctx, c, trading.Call{URL: base + "/stock/" + url.PathEscape(sym), Header: browserish}, &r); err != nil {
			return decimal.Zero, err
		}
		if r.Data == nil || r.Data.StockSymbol == "" {
			return decimal.Zero, trading.ErrUnknown
		}
		if !strings.EqualFold(r.Data.StockSymbol, sym) {
			return decimal.Zero, fmt.Errorf("asked for %s, answered %s", sym, r.Data.StockSymbol)
		}
		return wholeVND(r.Data.MatchedPrice)
	}}
}

// minVND is under the lowest price any Vietnamese stock is quoted at (a
// tick is 10 to 100 VND): a smaller number is a price in thousands, which
// some chart APIs answer, and is refused rather than read a thousand
// times too low.
var minVND = decimal.NewFromInt(100)

// priceRange is what a share can sanely cost in VND: from minVND up to
// far over the dearest share the exchanges have listed. A source
// answering outside it has failed.
var priceRange = trading.PriceRange{Min: minVND, Max: decimal.New(1, 8)}

// vnd reads a price in VND, as every source quotes per share; decimals
// are a price adjusted for a dividend since, read as they are.
func vnd(n json.Number) (decimal.Decimal, error) {
	d, err := trading.Positive(n.String())
	if err != nil {
		return d, err
	}
	if d.LessThan(minVND) {
		return decimal.Zero, fmt.Errorf("%w: %s is not a price in VND", trading.ErrPriceInvalid, n)
	}
	return d, nil
}

// wholeVND is a price to trade at: vnd rounded to the dong.
func wholeVND(n json.Number) (decimal.Decimal, error) {
	d, err := vnd(n)
	return d.Round(0), err
}
