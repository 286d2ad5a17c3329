package draw

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

var holdingsColor = color.RGBA{R: 0xe0, G: 0x8a, B: 0x1e, A: 0xff}

// value draws the total value, cash and holdings as three lines, and
// marks each deposit (a rise of Deposited) with its amount.
func value(s chart.Portfolio) ([]byte, error) {
	p := newPlot(s.Title, s.Offset, "Jan 02", s.Money)
	p.Add(gridLines())
	p.Legend.Top, p.Legend.Left = true, true
	for _, l := range []struct {
		name  string
		value func(chart.Point) float64
		col   color.Color
		width vg.Length
		dash  []vg.Length
	}{
		{"cash", func(pt chart.Point) float64 { return pt.Cash }, muted, 1.2, []vg.Length{vg.Points(4), vg.Points(3)}},
		{"holdings", func(pt chart.Point) float64 { return pt.Holdings }, holdingsColor, 1.2, nil},
		{"total", func(pt chart.Point) float64 { return pt.Cash + pt.Holdings }, line, 2.2, nil},
	} {
		xys := make(plotter.XYs, len(s.Points))
		for i, pt := range s.Points {
			xys[i] = plotter.XY{X: float64(pt.T.Unix()), Y: l.value(pt)}
		}
		ln, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		ln.Color, ln.Width, ln.Dashes = l.col, vg.Points(float64(l.width)), l.dash
		p.Add(ln)
		p.Legend.Add(l.name, ln)
	}
	deposits, err := depositMarks(s)
	if err != nil {
		return nil, err
	}
	p.Add(deposits...)
	p.Y.Min = min(p.Y.Min, 0) // values start at nothing: a rise reads as one
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.12
	return encode(p)
}

// depositMarks is a triangle on the total line at each day whose
// deposits rose, labelled with the rise.
func depositMarks(s chart.Portfolio) ([]plot.Plotter, error) {
	var xys plotter.XYs
	var labels []string
	for i, pt := range s.Points {
		prev := 0.0
		if i > 0 {
			prev = s.Points[i-1].Deposited
		}
		if pt.Deposited > prev {
			xys = append(xys, plotter.XY{X: float64(pt.T.Unix()), Y: pt.Cash + pt.Holdings})
			labels = append(labels, "+"+s.Money.String(pt.Deposited-prev))
		}
	}
	if len(xys) == 0 {
		return nil, nil
	}
	marks, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	marks.GlyphStyle = draw.GlyphStyle{Color: up, Radius: vg.Points(4), Shape: draw.TriangleGlyph{}}
	text, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	for i := range text.TextStyle {
		text.TextStyle[i].Font, text.TextStyle[i].Color = sans(labelSize, true), up
		text.TextStyle[i].XAlign, text.TextStyle[i].YAlign = draw.XCenter, draw.YBottom
	}
	text.Offset = vg.Point{Y: vg.Points(7)}
	return []plot.Plotter{marks, text}, nil
}
