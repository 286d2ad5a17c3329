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
	Store   storage.KVStore
	Log     *slog.Logger
	Now     func() time.Time
	Photos  app.Photos
	Sources []trading.HistorySource
	Name    string // the market: "coin" (commands /coin_chart, buttons "coinc:")
	Noun    string // how replies name a symbol: "coin", "ticker"
	// Periods are the ones the market draws, in button order; Default
	// is the one without an argument.
	Periods []trading.Period
	Default trading.Period
	Money   chart.Format
	Zone    *time.Location
	Drawer  chart.Drawer
	// Label names what a symbol's chart draws, in its title and replies,
	// when the symbol alone would mislead (gold's world spot); nil: the
	// symbol.
	Label func(sym string) string
	// Keep bounds the pictures cached (0: KeepCharts).
	Keep int
}

func (c *Charts) SymbolLabel(sym string) string {
	if c.Label == nil {
		return sym
	}
	return c.Label(sym)
}

// Picture is a drawn chart as cached: the PNG and its caption.
type Picture struct {
	PNG     []byte    `json:"png"`
	Caption string    `json:"caption"`
	At      time.Time `json:"at"` // when it was drawn
}

// Picture returns the chart of sym over p: the cached one while fresh,
// else drawn from the first source that has enough prices.
func (c *Charts) Picture(ctx context.Context, sym string, p trading.Period) (Picture, error) {
	if pic, ok := c.cached(ctx, sym, p); ok {
		return pic, nil
	}
	now := c.Now()
	h, src, err := trading.FetchHistory(ctx, c.Sources, sym, p, now, func(name string, err error) {
		c.Log.Warn("history source failed", "source", name, "symbol", sym, "period", p.Name, "err", err)
	})
	if err != nil {
		return Picture{}, err
	}
	title := c.title(sym, p, h)
	png, err := c.Drawer.Draw(ctx, chart.Series{Title: title, Bars: h.Bars, OHLC: h.OHLC, Money: c.Money, Offset: offset(c.Zone, now), TimeFormat: p.TimeFormat})
	if err != nil {
		return Picture{}, fmt.Errorf("chart %s %s: %w", sym, p.Name, err)
	}
	pic := Picture{PNG: png, Caption: c.caption(title, h, src), At: now}
	c.keep(ctx, sym, p, pic)
	return pic, nil
}

// title is "BTC 7d: $61,234.50, +2.31% (+$1,234.00)": the last price and
// the move over the period, in percent and in the market's money.
func (c *Charts) title(sym string, p trading.Period, h trading.History) string {
	first, last := h.Change()
	diff := last - first
	sign := "+"
	if diff < 0 {
		sign = "-"
	}
	pct := 100 * math.Abs(diff) / first
	return fmt.Sprintf("%s %s: %s, %s%.2f%% (%s%s)", c.SymbolLabel(sym), p.Name, c.Money.String(last), sign, pct, sign, c.Money.String(math.Abs(diff)))
}

// caption repeats the title (a picture is not read by everyone), then
// says where the prices come from and up to when.
func (c *Charts) caption(title string, h trading.History, src trading.HistorySource) string {
	kind := "prices"
	if h.OHLC {
		kind = "OHLC bars"
	}
	lines := []string{title, fmt.Sprintf("%d %s from %s to %s", len(h.Bars), kind, src.Name, h.Last().T.In(c.Zone).Format("02 Jan 2006 15:04 MST"))}
	if src.Note != "" {
		lines = append(lines, src.Note)
	}
	return strings.Join(lines, "\n")
}

// why is the words for a chart that cannot be drawn (ok false: another
// error, the caller's to return).
func (c *Charts) why(err error, sym string, p trading.Period) (string, bool) {
	sym = c.SymbolLabel(sym)
	switch {
	case errors.Is(err, trading.ErrUnknownSymbol):
		return fmt.Sprintf("Unknown %s: %s.", c.Noun, sym), true
	case errors.Is(err, trading.ErrTooFew):
		return fmt.Sprintf("Too few prices of %s over %s to draw a chart; try a longer period.", sym, p.Name), true
	case errors.Is(err, trading.ErrNoHistory):
		return fmt.Sprintf("No price history for %s right now; every source failed. Try again later.", sym), true
	case errors.Is(err, trading.ErrBadHistory):
		return fmt.Sprintf("No chart of %s right now: the price history the sources answered has prices that cannot be right (zero, negative or not a number).", sym), true
	}
	return "", false
}

// offset is zone's offset from UTC at t.
func offset(zone *time.Location, t time.Time) time.Duration {
	_, secs := t.In(zone).Zone()
	return time.Duration(secs) * time.Second
}
