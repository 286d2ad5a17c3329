package web

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/charts"
)

// WebChart is a symbol's prices over a period for the Mini App's chart.
type WebChart struct {
	Symbol  string   `json:"symbol"`
	Label   string   `json:"label"` // what the chart shows (gold: world spot)
	Period  string   `json:"period"`
	Periods []string `json:"periods"`
	OHLC    bool     `json:"ohlc"` // the bars have real opens, highs and lows
	Bars    []WebBar `json:"bars"`
	Source  string   `json:"source"`
	Note    string   `json:"note,omitempty"`
	// Offset is the viewer's clock's offset from UTC in seconds at the
	// last bar: the page, whose chart reads times as UTC, shows the bars
	// moved by it.
	Offset int       `json:"offset"`
	at     time.Time // when this process answered it (webCharts)
}

// WebBar is one bar: its time in Unix seconds, and its prices.
type WebBar struct {
	T int64   `json:"t"`
	O float64 `json:"o"`
	H float64 `json:"h"`
	L float64 `json:"l"`
	C float64 `json:"c"`
}

// webChartKeep bounds the charts one process keeps for the page.
const webChartKeep = 64

// ChartRoute is the desk's "chart" route: ?symbol=&period= answers the
// prices c's sources give for a symbol the user holds or traded (so the
// page can make the sources answer only for what portfolios hold), as c
// reads it, or the one symbol c draws for any holding (Kit.ChartOnly:
// gold's world spot). An answer is kept in this process for the period's
// Fresh.
func ChartRoute(d *trading.Desk, c *charts.Charts) app.WebRoute {
	kept := &webCharts{charts: map[string]WebChart{}}
	return app.WebRoute{Name: "chart", Handler: func(ctx context.Context, r *app.WebRequest) (any, error) {
		sym := strings.ToUpper(strings.TrimSpace(r.Query.Get("symbol")))
		p, ok := trading.ParsePeriod(r.Query.Get("period"), c.Periods, c.Period)
		if !ok || sym == "" {
			return nil, app.ErrWebNotFound
		}
		pf, found, err := trading.Load(ctx, d.Quotes.Store, r.UserID)
		if err != nil {
			return nil, err
		}
		if !found || !traded(pf, sym) {
			return nil, app.ErrWebNotFound
		}
		chartSym, ok := c.ChartOnly, true
		if chartSym == "" {
			chartSym, ok = c.ChartSymbol(sym)
		}
		if !ok {
			return nil, app.ErrWebNotFound
		}
		now := c.Now()
		w := wordsFor(d, r)
		if wc, ok := kept.get(chartSym+" "+p.Name, now, p.Fresh); ok {
			wc.Symbol, wc.Label, wc.Note, wc.Offset = sym, trading.KeyOr(w, c.ChartLabel, chartSym), trading.KeyOr(w, wc.Note, ""), offset(w, wc)
			return wc, nil
		}
		h, src, err := trading.FetchHistory(ctx, c.History, chartSym, p, now, func(name string, err error) {
			c.Log.Warn("history source failed", "source", name, "symbol", chartSym, "period", p.Name, "err", err)
		})
		switch {
		case errors.Is(err, trading.ErrUnknownSymbol), errors.Is(err, trading.ErrTooFew), errors.Is(err, trading.ErrNoHistory), errors.Is(err, trading.ErrBadHistory):
			return nil, app.ErrWebNotFound
		case err != nil:
			return nil, err
		}
		wc := WebChart{Symbol: sym, Label: trading.KeyOr(w, c.ChartLabel, chartSym), Period: p.Name, Periods: trading.Names(c.Periods), OHLC: h.OHLC, Source: src.Name, Note: src.Note}
		for _, b := range h.Bars {
			wc.Bars = append(wc.Bars, WebBar{T: b.T.Unix(), O: b.O, H: b.H, L: b.L, C: b.C})
		}
		kept.put(chartSym+" "+p.Name, wc, now) // its note a key: each answer says it in its reader's language
		wc.Note, wc.Offset = trading.KeyOr(w, wc.Note, ""), offset(w, wc)
		return wc, nil
	}}
}

// offset is w's reader's clock's offset from UTC at wc's last bar.
func offset(w app.Words, wc WebChart) int {
	if len(wc.Bars) == 0 {
		return 0
	}
	_, secs := w.Local(time.Unix(wc.Bars[len(wc.Bars)-1].T, 0)).Zone()
	return secs
}

// traded reports whether p holds sym or traded it.
func traded(p *trading.Portfolio, sym string) bool {
	_, held := p.Holdings[sym]
	return held || slices.ContainsFunc(p.History, func(t trading.Trade) bool { return t.Symbol == sym })
}

// webCharts is a small cache of answered charts, by when each was
// answered, emptied when full.
type webCharts struct {
	mu     sync.Mutex
	charts map[string]WebChart
}

func (w *webCharts) get(key string, now time.Time, fresh time.Duration) (WebChart, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wc, ok := w.charts[key]
	return wc, ok && now.Sub(wc.at) < fresh
}

func (w *webCharts) put(key string, wc WebChart, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.charts) >= webChartKeep {
		w.charts = map[string]WebChart{}
	}
	wc.at = now
	w.charts[key] = wc
}
