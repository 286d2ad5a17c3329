// Package charts is a market's price charts: /<market>_chart, its period
// buttons, and the bounded cache of drawn pictures.
package charts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Charts draws a market's price charts from its history sources, caching
// each picture in the store per (symbol, period) for the period's Fresh,
// so a group pressing the same button costs the sources and the CPU one
// drawing, whichever runtime serves the presses. The cache is bounded
// (chartcache.go).
type Charts struct {
	*trading.Kit // the market: its name, noun, periods, money and labels
	Store        storage.KVStore
	Log          *slog.Logger
	Now          func() time.Time
	Photos       app.Photos
	History      []trading.HistorySource
	Drawer       chart.Drawer
	// Keep bounds the pictures cached (0: KeepCharts).
	Keep int
}

// ChartSymbol reads a chart's symbol as the market's other commands do; a
// market whose charts draw one symbol (Kit.ChartOnly) takes only it.
func (c *Charts) ChartSymbol(s string) (string, bool) {
	if c.ChartOnly != "" {
		return s, s == c.ChartOnly
	}
	return c.Read(s)
}

// Picture is a drawn chart as cached: the PNG and its caption.
type Picture struct {
	PNG     []byte    `json:"png"`
	Caption string    `json:"caption"`
	At      time.Time `json:"at"` // when it was drawn
}

// Picture returns the chart of sym over p in w's language: the cached one
// while fresh, else drawn from the first source that has enough prices.
// Each language's picture is cached apart (its words and numbers are
// drawn in it); English under the symbol alone.
func (c *Charts) Picture(ctx context.Context, w app.Words, sym string, p trading.Period) (Picture, error) {
	entry := sym
	if w.Lang != "" && w.Lang != app.English {
		entry += "-" + string(w.Lang)
	}
	if pic, ok := c.cached(ctx, entry, p); ok {
		return pic, nil
	}
	now := c.Now()
	h, src, err := trading.FetchHistory(ctx, c.History, sym, p, now, func(name string, err error) {
		c.Log.Warn("history source failed", "source", name, "symbol", sym, "period", p.Name, "err", err)
	})
	if err != nil {
		return Picture{}, err
	}
	title := c.title(w, sym, p, h)
	png, err := c.Drawer.Draw(ctx, chart.Series{Title: title, Bars: h.Bars, OHLC: h.OHLC, Money: c.ChartMoney(w.Lang), Offset: offset(now),
		TimeFormat: trading.TimeLayout(w.Lang, p.TimeFormat), Words: chart.Words{High: w.T("trading.chart.high"), Low: w.T("trading.chart.low")}})
	if err != nil {
		return Picture{}, fmt.Errorf("chart %s %s: %w", sym, p.Name, err)
	}
	pic := Picture{PNG: png, Caption: c.caption(w, title, h, src), At: now}
	c.keep(ctx, entry, p, pic)
	return pic, nil
}

// title is "BTC 7d: $61,234.50, +2.31% (+$1,234.00)": the last price and
// the move over the period, in percent and in the market's money.
func (c *Charts) title(w app.Words, sym string, p trading.Period, h trading.History) string {
	first, last := h.Change()
	diff := last - first
	sign := "+"
	if diff < 0 {
		sign = "-"
	}
	pct := 100 * math.Abs(diff) / first
	money := c.ChartMoney(w.Lang)
	return w.T("trading.chart.title", app.Args{"Label": trading.KeyOr(w, c.ChartLabel, sym), "Period": p.Label(w), "Last": money.String(last),
		"Pct": sign + locale.Float(w.Lang, pct, 2), "Diff": sign + money.String(math.Abs(diff))})
}

// caption repeats the title (a picture is not read by everyone), then
// says where the prices come from and up to when.
func (c *Charts) caption(w app.Words, title string, h trading.History, src trading.HistorySource) string {
	key := "trading.chart.prices"
	if h.OHLC {
		key = "trading.chart.bars"
	}
	at := w.Local(h.Last().T).Format("02 Jan 2006 15:04 MST")
	if w.Lang == locale.Vietnamese {
		at = locale.DateTime(w.Lang, w.Local(h.Last().T))
	}
	lines := []string{title, w.T(key, app.Args{"Count": len(h.Bars), "Source": c.SourceName(w, src.Name), "At": at})}
	if src.Note != "" {
		lines = append(lines, w.T(src.Note))
	}
	return strings.Join(lines, "\n")
}

// why is the words for a chart that cannot be drawn (ok false: another
// error, the caller's to return).
func (c *Charts) why(w app.Words, err error, sym string, p trading.Period) (string, bool) {
	args := app.Args{"Sym": trading.KeyOr(w, c.ChartLabel, sym), "Period": p.Label(w)}
	switch {
	case errors.Is(err, trading.ErrUnknownSymbol):
		return w.T("unknown_symbol", args), true
	case errors.Is(err, trading.ErrTooFew):
		return w.T("trading.chart.too_few", args), true
	case errors.Is(err, trading.ErrNoHistory):
		return w.T("trading.chart.no_history", args), true
	case errors.Is(err, trading.ErrBadHistory):
		return w.T("trading.chart.bad_history", args), true
	}
	return "", false
}

// offset is the charts' zone's (ICT) offset from UTC at t.
func offset(t time.Time) time.Duration {
	_, secs := t.In(trading.ICT).Zone()
	return time.Duration(secs) * time.Second
}
