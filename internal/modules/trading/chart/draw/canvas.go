package draw

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// pt is a point in pixels, y downward as in the image.
type pt struct{ X, Y float64 }

// canvas is the picture being drawn: an RGBA image and one rasteriser
// reused for every fill.
type canvas struct {
	img *image.RGBA
	z   vector.Rasterizer
}

func newCanvas(w, h int) *canvas {
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
	draw.Draw(c.img, c.img.Bounds(), image.White, image.Point{}, draw.Src)
	return c
}

// fill paints the polygons in col, in one pass. The rasteriser adds the
// signed areas of overlapping polygons and clamps them, so every polygon is
// turned one way first (normalised) and their overlaps stay solid instead
// of cancelling out. The pass covers only the polygons' bounding box.
func (c *canvas) fill(col color.Color, polys [][]pt) {
	bounds := image.Rectangle{}
	for _, p := range polys {
		for _, q := range p {
			r := image.Rect(int(math.Floor(q.X)), int(math.Floor(q.Y)), int(math.Ceil(q.X))+1, int(math.Ceil(q.Y))+1)
			bounds = bounds.Union(r)
		}
	}
	bounds = bounds.Intersect(c.img.Bounds())
	if bounds.Empty() {
		return
	}
	c.z.Reset(bounds.Dx(), bounds.Dy())
	ox, oy := float64(bounds.Min.X), float64(bounds.Min.Y)
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		rev := area(p) < 0
		for i := range p {
			q := p[i]
			if rev {
				q = p[len(p)-1-i]
			}
			x, y := float32(q.X-ox), float32(q.Y-oy)
			if i == 0 {
				c.z.MoveTo(x, y)
			} else {
				c.z.LineTo(x, y)
			}
		}
		c.z.ClosePath()
	}
	c.z.Draw(c.img, bounds, image.NewUniform(col), image.Point{})
}

// area is p's signed area (shoelace): its sign is the way p turns.
func area(p []pt) float64 {
	var a float64
	for i, q := range p {
		r := p[(i+1)%len(p)]
		a += q.X*r.Y - r.X*q.Y
	}
	return a / 2
}

// box is an upright rectangle, corners (x0, y0) and (x1, y1), x0 <= x1
// and y0 <= y1.
type box struct{ x0, y0, x1, y1 float64 }

// fillBoxes paints the boxes in col. An upright box needs no rasteriser:
// each pixel it touches is covered by the product of the box's overlaps of
// it across and down, so a pass costs the boxes' area, not the picture's
// (grid lines and candles span all of it).
func (c *canvas) fillBoxes(col color.RGBA, boxes []box) {
	w, h := c.img.Bounds().Dx(), c.img.Bounds().Dy()
	for _, b := range boxes {
		for py := max(int(math.Floor(b.y0)), 0); py < min(int(math.Ceil(b.y1)), h); py++ {
			cy := min(b.y1, float64(py+1)) - max(b.y0, float64(py))
			for px := max(int(math.Floor(b.x0)), 0); px < min(int(math.Ceil(b.x1)), w); px++ {
				cx := min(b.x1, float64(px+1)) - max(b.x0, float64(px))
				blend(c.img.Pix[c.img.PixOffset(px, py):], col, cx*cy)
			}
		}
	}
}

// blend puts col over the pixel p with coverage a.
func blend(p []uint8, col color.RGBA, a float64) {
	mix := func(d, s uint8) uint8 { return uint8(float64(d)*(1-a) + float64(s)*a + 0.5) }
	p[0], p[1], p[2], p[3] = mix(p[0], col.R), mix(p[1], col.G), mix(p[2], col.B), mix(p[3], col.A)
}
