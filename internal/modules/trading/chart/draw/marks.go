package draw

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// extremes marks the series' high and low: a dot and "H $x" above the
// high, "L $y" below the low, each label turned toward the middle so it
// stays inside the picture.
func extremes(s chart.Series) ([]plot.Plotter, error) {
	hi, lo := 0, 0
	for i, b := range s.Bars {
		if b.H > s.Bars[hi].H {
			hi = i
		}
		if b.L < s.Bars[lo].L {
			lo = i
		}
	}
	var out []plot.Plotter
	for _, m := range []struct {
		i     int
		y     float64
		label string
		above bool
	}{
		{hi, s.Bars[hi].H, "H " + s.Money.String(s.Bars[hi].H), true},
		{lo, s.Bars[lo].L, "L " + s.Money.String(s.Bars[lo].L), false},
	} {
		xy := plotter.XYs{{X: float64(s.Bars[m.i].T.Unix()), Y: m.y}}
		dot, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: ink, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{m.label}})
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		sty := &labels.TextStyle[0]
		sty.Font, sty.Color = sans(labelSize, true), ink
		sty.XAlign = draw.XLeft
		if m.i > len(s.Bars)/2 {
			sty.XAlign = draw.XRight
		}
		labels.Offset = vg.Point{Y: vg.Points(-5)}
		sty.YAlign = draw.YTop
		if m.above {
			labels.Offset.Y, sty.YAlign = vg.Points(5), draw.YBottom
		}
		out = append(out, dot, labels)
	}
	return out, nil
}
