package draw

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
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
