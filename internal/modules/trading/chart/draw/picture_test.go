package draw

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// A chart is a picture of its data, not a blank page of the right size:
// its title and labels are written in ink, and each of its lines and
// candles shows in its own colour.
func TestAChartShowsItsDataInItsColours(t *testing.T) {
	tests := []struct {
		name   string
		c      chart.Chart
		colors map[string]color.RGBA
	}{
		{"candles", series(96, true), map[string]color.RGBA{"green candles": up, "red candles": down, "marks": ink}},
		{"a line", series(180, false), map[string]color.RGBA{"the line": line, "marks": ink}},
		{"a portfolio", portfolio(90), map[string]color.RGBA{"total": line, "holdings": holdingsColor, "cash and axes": muted, "deposits": up}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := New().Draw(t.Context(), tt.c)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if n := count(img, image.Rect(0, 0, chart.Width, 30), ink); n < 100 {
				t.Errorf("%d pixels of ink in the title's band; want a title", n)
			}
			if n := count(img, image.Rect(0, 30, 60, chart.Height), ink); n < 100 {
				t.Errorf("%d pixels of ink left of the axis; want money labels", n)
			}
			if n := count(img, image.Rect(0, chart.Height-30, chart.Width, chart.Height), ink); n < 100 {
				t.Errorf("%d pixels of ink under the axis; want time labels", n)
			}
			for what, col := range tt.colors {
				if n := count(img, img.Bounds(), col); n < 20 {
					t.Errorf("%d pixels of %s's colour", n, what)
				}
			}
		})
	}
}

// count is how many pixels of r are within a small distance of col (the
// edges of shapes are blended with what is under them).
func count(img image.Image, r image.Rectangle, col color.RGBA) int {
	near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d*d <= 16*16 }
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(cr, col.R) && near(cg, col.G) && near(cb, col.B) {
				n++
			}
		}
	}
	return n
}

// A price or an amount that is not a finite number, or prices too far
// apart to scale, is an error the caller turns into words, never a panic
// or a picture of nothing.
func TestAValueThatCannotBeDrawnIsAnErrorNotAPicture(t *testing.T) {
	bad := func(n int, ohlc bool, f func([]chart.Bar)) chart.Series {
		s := series(n, ohlc)
		f(s.Bars)
		return s
	}
	tests := []struct {
		name string
		c    chart.Chart
	}{
		{"a close that is NaN on a line", bad(180, false, func(b []chart.Bar) { b[7].C = math.NaN() })},
		{"a high that is +Inf on a candle", bad(96, true, func(b []chart.Bar) { b[3].H = math.Inf(1) })},
		{"an open that is NaN on a candle", bad(96, true, func(b []chart.Bar) { b[50].O = math.NaN() })},
		{"prices too far apart to scale", bad(96, true, func(b []chart.Bar) { b[1].H, b[2].L = 1e308, -1e308 })},
		{"cash that is -Inf", func() chart.Chart { p := portfolio(30); p.Points[4].Cash = math.Inf(-1); return p }()},
		{"a deposit that is NaN", func() chart.Chart { p := portfolio(30); p.Points[9].Deposited = math.NaN(); return p }()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			png, err := New().Draw(t.Context(), tt.c)
			if err == nil || png != nil {
				t.Fatalf("Draw = %d bytes, %v; want an error and nothing", len(png), err)
			}
		})
	}
}

// Bars that all carry the same time are still a picture (one column),
// not a division by zero; so are prices that do not move, or move by
// less than float64 rounds a price of their size to, far from zero or
// near it.
func TestFlatOrStillPricesAreStillDrawn(t *testing.T) {
	oneTime := func(s chart.Series) {
		for i := range s.Bars {
			s.Bars[i].T = s.Bars[0].T
		}
	}
	price := func(p func(i int) float64) func(chart.Series) {
		return func(s chart.Series) {
			for i := range s.Bars {
				v := p(i)
				s.Bars[i].O, s.Bars[i].H, s.Bars[i].L, s.Bars[i].C = v, v, v, v
			}
		}
	}
	for _, tt := range []struct {
		name   string
		change func(chart.Series)
	}{
		{"at one time", oneTime},
		{"one price", price(func(int) float64 { return 61234.5 })},
		{"nothing at all", price(func(int) float64 { return 0 })},
		{"a rise lost in rounding", price(func(i int) float64 { return 1e10 + float64(i%2)*1e-6 })},
		{"a rise past where float64 counts by ones", price(func(i int) float64 { return 0x1p60 + float64(i%2)*1024 })},
		{"a tiny price's tiny rise", price(func(i int) float64 { return 1e-8 * (1 + float64(i%3)*1e-12) })},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, ohlc := range []bool{true, false} {
				s := series(10, ohlc)
				tt.change(s)
				data, err := New().Draw(t.Context(), s)
				if err != nil {
					t.Fatal(err)
				}
				checkPNG(t, data)
			}
		})
	}
}
