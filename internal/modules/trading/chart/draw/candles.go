package draw

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// candles draws OHLC bars: a wick from low to high, a body from open to
// close, green when the close is not below the open. The library has no
// candlestick plotter; this is one, on its Plotter interface.
type candles struct {
	bars []chart.Bar
	step float64 // seconds between two bars' starts
}

func (c candles) Plot(cv draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&cv)
	// A body is 70% of a bar's slot, at least a pixel.
	width := (tx(c.step) - tx(0)) * 0.7
	width = max(width, vg.Length(1)*vg.Inch/dpi)
	for _, b := range c.bars {
		col := up
		if b.C < b.O {
			col = down
		}
		x := tx(float64(b.T.Unix()))
		sty := draw.LineStyle{Color: col, Width: vg.Points(0.8)}
		cv.StrokeLine2(sty, x, ty(b.L), x, ty(b.H))
		top, bottom := ty(max(b.O, b.C)), ty(min(b.O, b.C))
		if top-bottom < sty.Width {
			top = bottom + sty.Width // a doji still shows
		}
		body := vg.Path{}
		body.Move(vg.Point{X: x - width/2, Y: bottom})
		body.Line(vg.Point{X: x + width/2, Y: bottom})
		body.Line(vg.Point{X: x + width/2, Y: top})
		body.Line(vg.Point{X: x - width/2, Y: top})
		body.Close()
		cv.SetColor(col)
		cv.Fill(body)
	}
}

// DataRange covers every wick, half a bar more on each side.
func (c candles) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = float64(c.bars[0].T.Unix())-c.step/2, float64(c.bars[len(c.bars)-1].T.Unix())+c.step/2
	ymin, ymax = c.bars[0].L, c.bars[0].H
	for _, b := range c.bars {
		ymin, ymax = min(ymin, b.L), max(ymax, b.H)
	}
	return xmin, xmax, ymin, ymax
}
