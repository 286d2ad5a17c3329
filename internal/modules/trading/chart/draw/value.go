package draw

import (
	"cmp"
	"image/color"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// valueLines are the value chart's three lines, drawn in this order (the
// total on top) and listed so in the legend.
var valueLines = []struct {
	name   func(chart.Words) string
	value  func(chart.Point) float64
	col    color.Color
	width  float64 // points
	dashes []float64
}{
	{func(w chart.Words) string { return w.Cash }, func(p chart.Point) float64 { return p.Cash }, muted, 1.2, []float64{pts(4), pts(3)}},
	{func(w chart.Words) string { return w.Holdings }, func(p chart.Point) float64 { return p.Holdings }, holdingsColor, 1.2, nil},
	{func(w chart.Words) string { return w.Total }, func(p chart.Point) float64 { return p.Cash + p.Holdings }, line, 2.2, nil},
}

// value draws the total value, cash and holdings as three lines, and
// marks each deposit (a rise of Deposited) with its amount.
func value(s chart.Portfolio) ([]byte, error) {
	xs := make([]float64, len(s.Points))
	ys := make([][]float64, len(valueLines))
	y0, y1 := 0.0, s.Points[0].Cash // values start at nothing: a rise reads as one
	for k, l := range valueLines {
		ys[k] = make([]float64, len(s.Points))
		for i, p := range s.Points {
			xs[i], ys[k][i] = float64(p.T.Unix()), l.value(p)
			y0, y1 = min(y0, ys[k][i]), max(y1, ys[k][i])
		}
	}
	// Room above for the legend and the deposits' labels.
	y1 += (y1 - y0) * 0.12
	f, err := newFrame(s.Title, xs[0], xs[len(xs)-1], y0, y1, s.Offset, cmp.Or(s.TimeFormat, "Jan 02"), s.Money)
	if err != nil {
		return nil, err
	}
	for k, l := range valueLines {
		f.fill(l.col, stroke(f.line(xs, ys[k]), pts(l.width), l.dashes...))
	}
	f.markDeposits(s)
	f.legend(s.Words.Or())
	return f.encode()
}

// legend names the lines at the data area's top left corner, each after
// a sample of its line.
func (f *frame) legend(w chart.Words) {
	_, h := textSize(f.small, "0")
	sample := pts(20)
	for k, l := range valueLines {
		y := f.top + h*(float64(k)+0.5)
		f.fill(l.col, stroke([]pt{{f.left, y}, {f.left + sample, y}}, pts(l.width), l.dashes...))
		f.text(f.small, l.name(w), f.left+sample+textGap, y, start, middle, ink)
	}
}
