package draw

import "math"

// disc is a circle of radius r about c, as a polygon fine enough at
// these sizes.
func disc(c pt, r float64) []pt {
	n := 12
	if r > 3 {
		n = 24
	}
	p := make([]pt, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / float64(n)
		p[i] = pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)}
	}
	return p
}

// stroke is the outline of a line along path, width px wide, round at
// its joins; dashes (on, off, on, ... lengths in px) break it up.
func stroke(path []pt, width float64, dashes ...float64) [][]pt {
	var out [][]pt
	for _, run := range dash(path, dashes) {
		for i := 1; i < len(run); i++ {
			a, b := run[i-1], run[i]
			dx, dy := b.X-a.X, b.Y-a.Y
			l := math.Hypot(dx, dy)
			if l == 0 {
				continue
			}
			nx, ny := -dy/l*width/2, dx/l*width/2
			out = append(out, []pt{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}})
			if i < len(run)-1 {
				out = append(out, disc(b, width/2))
			}
		}
	}
	return out
}

// dash cuts the line along path into the runs that are on.
func dash(path []pt, dashes []float64) [][]pt {
	if len(dashes) == 0 || len(path) < 2 {
		return [][]pt{path}
	}
	var runs [][]pt
	k, left, on := 0, dashes[0], true
	cur := []pt{path[0]}
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		done := 0.0
		for l-done > left {
			done += left
			q := pt{a.X + (b.X-a.X)*done/l, a.Y + (b.Y-a.Y)*done/l}
			if on {
				runs = append(runs, append(cur, q))
			}
			cur, on = []pt{q}, !on
			k = (k + 1) % len(dashes)
			left = dashes[k]
		}
		left -= l - done
		cur = append(cur, b)
	}
	if on {
		runs = append(runs, cur)
	}
	return runs
}
