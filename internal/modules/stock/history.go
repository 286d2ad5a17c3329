package stock

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// Stocks have daily bars only (KBS's data_day, Vietcap's ONE_DAY): a
// day's chart would be one bar, so the periods start at a week.
var periods = []trading.Period{trading.Week, trading.Month, trading.Year}

// kbsHistory reads KB Securities' daily bars over the period.
func kbsHistory(c *http.Client, base string) trading.HistorySource {
	return trading.HistorySource{Name: "KBS", Bars: func(ctx context.Context, sym string, p trading.Period, now time.Time) (trading.History, error) {
		bars, err := kbsDays(ctx, c, base, sym, now.Add(-p.Span), now)
		if err != nil {
			return trading.History{}, fmt.Errorf("kbs history: %w", err)
		}
		h := trading.History{OHLC: true}
		for i, b := range bars {
			t, err := time.ParseInLocation("2006-01-02 15:04", b.T, trading.ICT)
			if err != nil {
				return trading.History{}, fmt.Errorf("kbs history: bar %d: %w", i, err)
			}
			bar, err := vndBar(t, b.O, b.H, b.L, b.C)
			if err != nil {
				return trading.History{}, fmt.Errorf("kbs history: bar %d: %w", i, err)
			}
			h.Bars = append(h.Bars, bar)
		}
		return h, nil
	}}
}

// vciCountBack is how many daily bars to ask Vietcap for: the period's
// trading days and a margin (the bars outside the period are dropped).
var vciCountBack = map[string]int{"7d": 10, "30d": 30, "1y": 260}

// vciHistory reads Vietcap's daily OHLC chart: parallel arrays t, o, h,
// l, c (t in seconds, as numbers or strings).
func vciHistory(c *http.Client, base string) trading.HistorySource {
	return trading.HistorySource{Name: "VCI", Bars: func(ctx context.Context, sym string, p trading.Period, now time.Time) (trading.History, error) {
		s, err := vciDays(ctx, c, base, sym, now, vciCountBack[p.Name])
		if err != nil {
			return trading.History{}, fmt.Errorf("vci history: %w", err)
		}
		if n := len(s.T); len(s.O) != n || len(s.H) != n || len(s.L) != n || len(s.C) != n {
			return trading.History{}, fmt.Errorf("vci history: arrays of %d, %d, %d, %d, %d", n, len(s.O), len(s.H), len(s.L), len(s.C))
		}
		h := trading.History{OHLC: true}
		for i := range s.T {
			t, err := trading.UnixTime(s.T[i])
			if err != nil {
				return trading.History{}, fmt.Errorf("vci history: bar %d: %w", i, err)
			}
			bar, err := vndBar(t, s.O[i], s.H[i], s.L[i], s.C[i])
			if err != nil {
				return trading.History{}, fmt.Errorf("vci history: bar %d: %w", i, err)
			}
			h.Bars = append(h.Bars, bar)
		}
		return h, nil
	}}
}

// vndBar is a bar in VND as the sources quote it. Vietcap adjusts the
// bars before a dividend's ex-date, so their prices carry decimals of a
// dong; they are drawn as they are.
func vndBar(t time.Time, o, h, l, c json.Number) (chart.Bar, error) {
	var f [4]float64
	for i, n := range []json.Number{o, h, l, c} {
		d, err := vnd(n)
		if err != nil {
			return chart.Bar{}, err
		}
		f[i] = d.InexactFloat64()
	}
	return chart.Bar{T: t.UTC(), O: f[0], H: f[1], L: f[2], C: f[3]}, nil
}

// chartVND is a price on a chart, in whole VND.
var chartVND = chart.Format{Suffix: " VND"}
