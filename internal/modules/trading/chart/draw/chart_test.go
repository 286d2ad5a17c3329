package draw

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

const ict = 7 * time.Hour

// walk is a fixed, made-up price path of n bars of step from t0: a drift
// and two waves, so the high and the low fall inside the period.
func walk(n int, step time.Duration, ohlc bool) []chart.Bar {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	bars := make([]chart.Bar, n)
	prev := 60000.0
	for i := range bars {
		c := 60000 + 40*float64(i) + 2500*math.Sin(float64(i)/9) + 700*math.Sin(float64(i)*1.7)
		b := chart.Bar{T: t0.Add(time.Duration(i) * step), O: c, H: c, L: c, C: c}
		if ohlc {
			b.O = prev
			b.H = max(b.O, c) + 150 + 100*math.Abs(math.Sin(float64(i)))
			b.L = min(b.O, c) - 150 - 100*math.Abs(math.Cos(float64(i)))
		}
		bars[i], prev = b, c
	}
	return bars
}

var usd = chart.Format{Prefix: "$", Places: chart.Auto}

func series(n int, ohlc bool) chart.Series {
	return chart.Series{Title: "BTC 7d: $61,234.50, +2.31% (+$1,234.00)", Bars: walk(n, time.Hour, ohlc), OHLC: ohlc, Money: usd, Offset: ict, TimeFormat: "Jan 02"}
}

// Every price chart is the promised picture: a PNG of 800 x 500 px under
// 150 KB, the same bytes for the same input.
func TestAPriceChartIsAPhoneSizedPNGAndTheSameForTheSameInput(t *testing.T) {
	tests := []struct {
		name string
		s    chart.Series
	}{
		{"96 candles (a day of 15-minute bars)", series(96, true)},
		{"130 candles, the most drawn as candles", series(maxCandles, true)},
		{"365 bars of OHLC drawn as a line", series(365, true)},
		{"a line of prices without OHLC", series(180, false)},
		{"the fewest prices drawn", series(chart.MinBars, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, err := New().Draw(t.Context(), tt.s)
			if err != nil {
				t.Fatal(err)
			}
			again, err := New().Draw(t.Context(), tt.s)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, again) {
				t.Fatal("two renders of the same series differ")
			}
			checkPNG(t, first)
			if os.Getenv("CHART_OUT") != "" {
				_ = os.WriteFile(os.Getenv("CHART_OUT")+"/"+tt.name+".png", first, 0o644)
			}
		})
	}
}

// checkPNG fails unless data decodes as an 800 x 500 PNG under 150 KB.
func checkPNG(t *testing.T, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != chart.Width || b.Dy() != chart.Height {
		t.Fatalf("%d x %d px; want %d x %d", b.Dx(), b.Dy(), chart.Width, chart.Height)
	}
	if len(data) > 150<<10 {
		t.Fatalf("%d bytes; want under 150 KB", len(data))
	}
}

// Fewer than MinBars prices is no picture but ErrTooFew, which the
// modules turn into words.
func TestTooFewPricesAreRefusedNotDrawn(t *testing.T) {
	for n := range chart.MinBars {
		if _, err := New().Draw(t.Context(), series(n, true)); !errors.Is(err, chart.ErrTooFew) {
			t.Fatalf("%d bars: %v; want ErrTooFew", n, err)
		}
	}
}

// The figures the issue asks for: go test -run '^$' -bench . ./internal/modules/trading/chart/draw/
func BenchmarkPrice(b *testing.B) {
	for _, bb := range []struct {
		name string
		s    chart.Series
	}{{"candles96", series(96, true)}, {"line365", series(365, false)}} {
		b.Run(bb.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				data, err := New().Draw(b.Context(), bb.s)
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "png-bytes")
		})
	}
}

func portfolio(days int) chart.Portfolio {
	t0 := time.Date(2026, 1, 1, 17, 0, 0, 0, time.UTC)
	var pts []chart.Point
	for i := range days {
		if i == 3 {
			continue // a day the job did not run
		}
		dep := 1000.0
		if i >= 40 {
			dep = 1500
		}
		pts = append(pts, chart.Point{T: t0.AddDate(0, 0, i), Cash: dep - 600, Holdings: 600 + 80*math.Sin(float64(i)/6), Deposited: dep})
	}
	return chart.Portfolio{Title: "Your coin portfolio: $1,523.40", Points: pts, Money: usd, Offset: ict}
}

// A value chart is the same promised picture, same bytes for the same
// days, a year of them included; one day is too few.
func TestAValueChartIsAPhoneSizedPNGAndTheSameForTheSameInput(t *testing.T) {
	for _, days := range []int{chart.MinPoints, 90, 366} {
		first, err := New().Draw(t.Context(), portfolio(days))
		if err != nil {
			t.Fatal(err)
		}
		again, _ := New().Draw(t.Context(), portfolio(days))
		if !bytes.Equal(first, again) {
			t.Fatalf("%d days: two renders differ", days)
		}
		checkPNG(t, first)
		if os.Getenv("CHART_OUT") != "" {
			_ = os.WriteFile(fmt.Sprintf("%s/value%d.png", os.Getenv("CHART_OUT"), days), first, 0o644)
		}
	}
	if _, err := New().Draw(t.Context(), chart.Portfolio{Points: []chart.Point{{}}, Money: usd, Offset: ict}); !errors.Is(err, chart.ErrTooFew) {
		t.Fatalf("one day: %v; want ErrTooFew", err)
	}
}

func BenchmarkValue(b *testing.B) {
	s := portfolio(366)
	var n int
	for b.Loop() {
		data, err := New().Draw(b.Context(), s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "png-bytes")
}

// A request already given up (its update's time spent) draws nothing:
// its error is the context's.
func TestADoneContextDrawsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if png, err := New().Draw(ctx, series(96, true)); !errors.Is(err, context.Canceled) || png != nil {
		t.Fatalf("Draw = %d bytes, %v; want nothing and context.Canceled", len(png), err)
	}
}
