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

// kbs reads the daily bars of KB Securities and takes the close of the
// latest one; two weeks back covers weekends and Tet.
func kbs(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "KBS", Price: func(ctx context.Context, sym string, now time.Time) (decimal.Decimal, error) {
		bars, err := kbsDays(ctx, c, base, sym, now.AddDate(0, 0, -14), now)
		if err != nil {
			return decimal.Zero, err
		}
		latest := slices.MaxFunc(bars, func(a, b kbsBar) int { return cmp.Compare(a.T, b.T) })
		return wholeVND(latest.C)
	}}
}

// kbsBar is one of KBS's daily bars.
type kbsBar struct {
	T          string // "2026-11-27 07:00": sorts as text
	O, H, L, C json.Number
}

// kbsDays are KBS's daily bars of sym from one day to another (in ICT).
func kbsDays(ctx context.Context, c *http.Client, base, sym string, from, to time.Time) ([]kbsBar, error) {
	day := func(t time.Time) string { return t.In(trading.ICT).Format("02-01-2006") }
	u := fmt.Sprintf("%s/iis-server/investment/stocks/%s/data_day?sdate=%s&edate=%s", base, url.PathEscape(sym), day(from), day(to))
	var r struct {
		Bars []kbsBar `json:"data_day"`
	}
	if err := trading.Do(ctx, c, trading.Call{URL: u, Header: browserish}, &r); err != nil {
		return nil, err
	}
	if len(r.Bars) == 0 {
		return nil, trading.ErrUnknown
	}
	return r.Bars, nil
}

// vci reads Vietcap's daily OHLC chart and takes the last close.
func vci(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "VCI", Price: func(ctx context.Context, sym string, now time.Time) (decimal.Decimal, error) {
		s, err := vciDays(ctx, c, base, sym, now, 5)
		if err != nil {
			return decimal.Zero, err
		}
		if s.Symbol != "" && !strings.EqualFold(s.Symbol, sym) {
			return decimal.Zero, fmt.Errorf("asked for %s, answered %s", sym, s.Symbol)
		}
		return wholeVND(s.C[len(s.C)-1])
	}}
}

// vciBars are Vietcap's daily bars as parallel arrays: t (seconds, as
// numbers or strings), o, h, l, c.
type vciBars struct {
	Symbol     string
	T          []any
	O, H, L, C []json.Number
}

// vciDays are Vietcap's last n daily bars of sym up to a time.
func vciDays(ctx context.Context, c *http.Client, base, sym string, to time.Time, n int) (vciBars, error) {
	body := map[string]any{"timeFrame": "ONE_DAY", "symbols": []string{sym}, "to": to.Unix(), "countBack": n}
	var r []vciBars
	call := trading.Call{Method: http.MethodPost, URL: base + "/api/chart/OHLCChart/gap-chart", Header: browserish, Body: body}
	if err := trading.Do(ctx, c, call, &r); err != nil {
		return vciBars{}, err
	}
	if len(r) == 0 || len(r[0].T) == 0 || len(r[0].C) == 0 {
		return vciBars{}, trading.ErrUnknown
	}
	return r[0], nil
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
