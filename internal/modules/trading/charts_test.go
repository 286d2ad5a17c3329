package trading

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// This test binary registers no drawer and has no chartrender beside it,
// as a Lambda package built without its helper would be: the chart is
// said to be unavailable in words, never sent empty, and nothing is
// cached.
func TestAChartWithoutARendererIsSaidNotSent(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	src := HistorySource{Name: "fixed", Bars: func(context.Context, string, Period, time.Time) (History, error) {
		h := History{}
		for i := range 10 {
			h.Bars = append(h.Bars, chart.Bar{T: now.Add(time.Duration(i-10) * time.Hour), O: 1, H: 2, L: 1, C: 2})
		}
		return h, nil
	}}
	store := memory.New().For("coin")
	c := &Charts{Store: store, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return now },
		Sources: []HistorySource{src}, Name: "coin", Noun: "coin", Periods: AllPeriods, Default: Week, Zone: ICT}
	_, err := c.Picture(t.Context(), "BTC", Day)
	if !errors.Is(err, chart.ErrNoRenderer) {
		t.Fatalf("err = %v; want ErrNoRenderer", err)
	}
	if text, ok := c.why(err, "BTC", Day); !ok || text != "Charts cannot be drawn here right now." {
		t.Fatalf("why = %q, %v; want the words", text, ok)
	}
	if keys, _ := store.List(t.Context(), "chart:"); len(keys) != 0 {
		t.Fatalf("cached %v; an undrawn chart is not cached", keys)
	}
}
