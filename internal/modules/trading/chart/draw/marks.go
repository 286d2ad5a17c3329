package draw

import (
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// extremes are the indexes of the bars with the lowest low and the
// highest high (the first of equals).
func extremes(bars []chart.Bar) (lo, hi int) {
	for i, b := range bars {
		if b.H > bars[hi].H {
			hi = i
		}
		if b.L < bars[lo].L {
			lo = i
		}
	}
	return lo, hi
}

// markExtremes marks the series' high and low: a dot and "H $x" above the
// high, "L $y" below the low, each label turned toward the middle so it
// stays inside the picture.
func (f *frame) markExtremes(s chart.Series, lo, hi int) {
	var dots [][]pt
	for _, m := range []struct {
		i     int
		y     float64
		label string
		above bool
	}{
		{hi, s.Bars[hi].H, s.Words.Or().High + " " + s.Money.String(s.Bars[hi].H), true},
		{lo, s.Bars[lo].L, s.Words.Or().Low + " " + s.Money.String(s.Bars[lo].L), false},
	} {
		p := pt{f.x(unix(s.Bars[m.i])), f.y(m.y)}
		dots = append(dots, disc(p, pts(2.5)))
		ax := start
		if m.i > len(s.Bars)/2 {
			ax = end
		}
		y, ay := p.Y+pts(5), start
		if m.above {
			y, ay = p.Y-pts(5), end
		}
		f.text(f.small, m.label, p.X, y, ax, ay, ink)
	}
	f.fill(ink, dots)
}

// markDeposits puts a triangle on the total line at each day whose
// deposits rose, labelled with the rise.
func (f *frame) markDeposits(s chart.Portfolio) {
	var marks [][]pt
	for i, p := range s.Points {
		prev := 0.0
		if i > 0 {
			prev = s.Points[i-1].Deposited
		}
		if p.Deposited <= prev {
			continue
		}
		c, r := pt{f.x(float64(p.T.Unix())), f.y(p.Cash + p.Holdings)}, pts(4)
		// An outlined triangle standing on its base, centred on c.
		tri := []pt{{c.X, c.Y - r}, {c.X + r*0.866, c.Y + r/2}, {c.X - r*0.866, c.Y + r/2}, {c.X, c.Y - r}}
		marks = append(marks, stroke(tri, pts(0.5))...)
		marks = append(marks, disc(tri[0], pts(0.25)))
		f.text(f.small, "+"+s.Money.String(p.Deposited-prev), c.X, c.Y-pts(7), middle, end, up)
	}
	f.fill(up, marks)
}
