package charts

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// drawerFunc is a chart.Drawer of one function: the tests' fake.
type drawerFunc func(context.Context, chart.Chart) ([]byte, error)

func (f drawerFunc) Draw(ctx context.Context, c chart.Chart) ([]byte, error) { return f(ctx, c) }

var _ chart.Drawer = drawerFunc(nil)

// fixedCharts is a market's charts over ten hourly bars, drawn by d.
func fixedCharts(now time.Time, d chart.Drawer) *Charts {
	src := trading.HistorySource{Name: "fixed", Bars: func(context.Context, string, trading.Period, time.Time) (trading.History, error) {
		h := trading.History{}
		for i := range 10 {
			h.Bars = append(h.Bars, chart.Bar{T: now.Add(time.Duration(i-10) * time.Hour), O: 1, H: 2, L: 1, C: 2})
		}
		return h, nil
	}}
	return &Charts{Kit: &trading.Kit{Name: "coin", Periods: trading.AllPeriods, Period: trading.Week},
		Store: memory.New().For("coin"), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return now },
		History: []trading.HistorySource{src}, Drawer: d}
}

// The market's drawer draws its series, titled; the picture is kept, so a
// second ask within the period's freshness draws nothing.
func TestAChartIsDrawnByTheMarketsDrawerOnce(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var drawn []chart.Series
	c := fixedCharts(now, drawerFunc(func(_ context.Context, ch chart.Chart) ([]byte, error) {
		drawn = append(drawn, ch.(chart.Series))
		return []byte("png"), nil
	}))
	for range 2 {
		pic, err := c.Picture(t.Context(), app.Words{}, "BTC", trading.Day)
		if err != nil || string(pic.PNG) != "png" {
			t.Fatalf("Picture = %q, %v; want the drawer's bytes", pic.PNG, err)
		}
	}
	if len(drawn) != 1 || len(drawn[0].Bars) != 10 || drawn[0].Title == "" {
		t.Fatalf("drew %+v; want one titled series of 10 bars", drawn)
	}
}

// A drawing that fails is the caller's error, never an empty picture, and
// nothing is cached.
func TestAChartTheDrawerFailsIsAnErrorAndNotCached(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	broken := errors.New("out of ink")
	c := fixedCharts(now, drawerFunc(func(context.Context, chart.Chart) ([]byte, error) { return nil, broken }))
	if _, err := c.Picture(t.Context(), app.Words{}, "BTC", trading.Day); !errors.Is(err, broken) {
		t.Fatalf("err = %v; want the drawer's", err)
	}
	if keys, _ := c.Store.List(t.Context(), "chart:"); len(keys) != 0 {
		t.Fatalf("cached %v; an undrawn chart is not cached", keys)
	}
}
