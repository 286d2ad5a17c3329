package draw

import (
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// maxCandles is the most bars drawn as candles; past it they would be
// slivers, and the closes are drawn as a line.
const maxCandles = 130

// price draws s: candles when the source has OHLC and they fit, else the
// closes as a line; the high and the low marked with their prices.
func price(s chart.Series) ([]byte, error) {
	bars := s.Bars
	asCandles := s.OHLC && len(bars) <= maxCandles
	x0, x1 := unix(bars[0]), unix(bars[len(bars)-1])
	// A candle's slot: the time between two bars' starts, half of it
	// beyond the first and the last.
	step := (x1 - x0) / float64(len(bars)-1)
	if asCandles {
		x0, x1 = x0-step/2, x1+step/2
	}
	lo, hi := extremes(bars)
	y0, y1 := bars[lo].L, bars[hi].H // marked even when the line is of closes
	// Room above the high and below the low for their labels.
	pad := (y1 - y0) * 0.08
	f, err := newFrame(s.Title, x0, x1, y0-pad, y1+pad, s.Offset, s.TimeFormat, s.Money)
	if err != nil {
		return nil, err
	}
	if asCandles {
		f.candles(bars, step)
	} else {
		xs, ys := make([]float64, len(bars)), make([]float64, len(bars))
		for i, b := range bars {
			xs[i], ys[i] = unix(b), b.C
		}
		f.fill(line, stroke(f.line(xs, ys), pts(1.6)))
	}
	f.markExtremes(s, lo, hi)
	return f.encode()
}

func unix(b chart.Bar) float64 { return float64(b.T.Unix()) }

// candles draws OHLC bars: a wick from low to high, a body from open to
// close (70% of a bar's slot, at least a pixel), green when the close is
// not below the open.
func (f *frame) candles(bars []chart.Bar, step float64) {
	width := max((f.x(step)-f.x(0))*0.7, 1)
	wick := pts(0.8)
	var green, red []box
	for _, b := range bars {
		x := f.x(unix(b))
		top, bottom := f.y(max(b.O, b.C)), f.y(min(b.O, b.C))
		if bottom-top < wick {
			top = bottom - wick // a doji still shows
		}
		shapes := []box{
			{x - wick/2, f.y(max(b.H, b.L)), x + wick/2, f.y(min(b.H, b.L))},
			{x - width/2, top, x + width/2, bottom},
		}
		if b.C < b.O {
			red = append(red, shapes...)
		} else {
			green = append(green, shapes...)
		}
	}
	f.fillBoxes(up, green)
	f.fillBoxes(down, red)
}
