// Package chart draws the markets' pictures as PNG, with gonum.org/v1/plot
// (pure Go, no cgo): a price over a period (candles where the source has
// OHLC, else a line) with its high and low marked, and a portfolio's value
// over time. The same input gives the same bytes.
package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Bar is one period of prices; a source with one price per time gives
// O = H = L = C.
type Bar struct {
	T          time.Time
	O, H, L, C float64
}

// MinBars is the fewest prices a chart is drawn from: fewer would be a
// picture of almost nothing, so the caller says so in words instead.
const MinBars = 5

// maxCandles is the most bars drawn as candles; past it they would be
// slivers, and the closes are drawn as a line.
const maxCandles = 130

// ErrTooFew: fewer than MinBars prices.
var ErrTooFew = errors.New("chart: too few prices to draw")

// Series is a price chart's input.
type Series struct {
	Title string // "BTC 7d: $60,000.50, +2.31% (+$1,234.00)"
	Bars  []Bar  // oldest first
	OHLC  bool   // the bars have real opens, highs and lows
	Money func(float64) string
	Zone  *time.Location // the times' zone on the axis
	// TimeFormat lays out the X axis' times ("15:04", "Jan 02").
	TimeFormat string
}

// Price draws s: candles when the source has OHLC and they fit, else the
// closes as a line; the high and the low marked with their prices.
func Price(s Series) ([]byte, error) {
	if len(s.Bars) < MinBars {
		return nil, fmt.Errorf("%w: %d of %d", ErrTooFew, len(s.Bars), MinBars)
	}
	p := newPlot(s.Title, s.Zone, s.TimeFormat, s.Money)
	p.Add(gridLines())
	if s.OHLC && len(s.Bars) <= maxCandles {
		step := float64(s.Bars[len(s.Bars)-1].T.Unix()-s.Bars[0].T.Unix()) / float64(len(s.Bars)-1)
		p.Add(candles{bars: s.Bars, step: step})
	} else {
		l, err := plotter.NewLine(closes(s.Bars))
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		l.Color, l.Width = line, vg.Points(1.6)
		p.Add(l)
	}
	marks, err := extremes(s)
	if err != nil {
		return nil, err
	}
	p.Add(marks...)
	// Room above the high and below the low for their labels.
	pad := (p.Y.Max - p.Y.Min) * 0.08
	p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	return encode(p)
}

func closes(bars []Bar) plotter.XYs {
	xys := make(plotter.XYs, len(bars))
	for i, b := range bars {
		xys[i] = plotter.XY{X: float64(b.T.Unix()), Y: b.C}
	}
	return xys
}

func gridLines() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = grid, grid
	return g
}

// encode renders p at 800 x 500 px. PNG's default compression: its best
// took 5 times as long (90% of a render) for 15% fewer bytes.
func encode(p *plot.Plot) ([]byte, error) {
	c := vgimg.NewWith(vgimg.UseWH(pageW, pageH), vgimg.UseDPI(dpi))
	p.Draw(draw.New(c))
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&b, c.Image()); err != nil {
		return nil, fmt.Errorf("chart: png: %w", err)
	}
	return b.Bytes(), nil
}
