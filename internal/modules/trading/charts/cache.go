package charts

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// KeepCharts bounds the pictures a market's chart cache holds (Charts.Keep
// unset): each is tens of KB, and the symbols asked for have no bound.
const KeepCharts = 64

// The cache keeps each picture under "chart:<SYM>:<period>:<unix ms drawn>",
// so that what to drop is known from the keys alone: a write sweeps the
// cache, deleting what no read would take (stale, superseded, or of an
// earlier key shape) and then the oldest past Keep. Nothing is left behind
// unread: the store shrinks, not just the reads.
const chartPrefix = "chart:"

func chartKey(sym string, p trading.Period, at time.Time) string {
	return chartPrefix + sym + ":" + p.Name + ":" + strconv.FormatInt(at.UnixMilli(), 10)
}

// cachedChart is one cache key, read.
type cachedChart struct {
	key, sym, period string
	at               time.Time
}

// parseChartKey reads a cache key; ok is false for any other shape (the
// earlier "chart:<SYM>:<period>", which no read takes any more).
func parseChartKey(key string) (c cachedChart, ok bool) {
	rest, ok := strings.CutPrefix(key, chartPrefix)
	if !ok {
		return c, false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return c, false
	}
	ms, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return c, false
	}
	return cachedChart{key: key, sym: parts[0], period: parts[1], at: time.UnixMilli(ms)}, true
}

// cached is the newest picture of sym over p while fresh.
func (c *Charts) cached(ctx context.Context, sym string, p trading.Period) (Picture, bool) {
	keys, err := c.Store.List(ctx, chartPrefix+sym+":"+p.Name+":")
	if err != nil {
		return Picture{}, false
	}
	var newest cachedChart
	for _, k := range keys {
		if e, ok := parseChartKey(k); ok && e.sym == sym && e.period == p.Name && e.at.After(newest.at) {
			newest = e
		}
	}
	if newest.key == "" || c.Now().Sub(newest.at) >= p.Fresh {
		return Picture{}, false
	}
	var pic Picture
	if err := c.Store.GetJSON(ctx, newest.key, &pic); err != nil {
		return Picture{}, false // swept meanwhile, or unreadable: draw it again
	}
	return pic, true
}

// keep caches pic of sym over p, then sweeps the cache. A failure is
// logged: the picture is still the caller's to send.
func (c *Charts) keep(ctx context.Context, sym string, p trading.Period, pic Picture) {
	if err := c.Store.PutJSON(ctx, chartKey(sym, p, pic.At), pic); err != nil {
		c.Log.Warn("chart not cached", "symbol", sym, "period", p.Name, "err", err)
		return
	}
	if err := c.sweep(ctx); err != nil {
		c.Log.Warn("chart cache not swept", "err", err)
	}
}

// sweep deletes the cache keys no read would take (of another shape,
// stale, or superseded by a newer picture of the same symbol and period),
// then the oldest past Keep: newest first, a picture is kept while it is
// fresh, the first of its symbol and period, and within Keep.
func (c *Charts) sweep(ctx context.Context) error {
	keys, err := c.Store.List(ctx, chartPrefix)
	if err != nil {
		return err
	}
	fresh := map[string]time.Duration{}
	for _, p := range trading.AllPeriods {
		fresh[p.Name] = p.Fresh
	}
	var drop []string
	var cached []cachedChart
	for _, k := range keys {
		if e, ok := parseChartKey(k); ok {
			cached = append(cached, e)
		} else {
			drop = append(drop, k)
		}
	}
	slices.SortFunc(cached, func(a, b cachedChart) int { return b.at.Compare(a.at) })
	keep := c.Keep
	if keep <= 0 {
		keep = KeepCharts
	}
	now, kept := c.Now(), map[string]bool{} // by symbol and period
	for _, e := range cached {
		id := e.sym + ":" + e.period
		if now.Sub(e.at) >= fresh[e.period] || kept[id] || len(kept) >= keep { // an unknown period's Fresh is 0
			drop = append(drop, e.key)
			continue
		}
		kept[id] = true
	}
	var errs []error
	for _, k := range drop {
		if err := c.Store.Delete(ctx, k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
