package draw

import (
	"fmt"
	"image"
	"image/color"
	"sync"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// sans is Liberation Sans, parsed at the first picture drawn rather than
// at start: a process that draws nothing (most webhook calls) never pays
// for it. A parsed font serves every goroutine; its faces do not.
var sans = sync.OnceValues(func() (*opentype.Font, error) {
	f, err := opentype.Parse(liberationsansregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("chart: font: %w", err)
	}
	return f, nil
})

// faces are one picture's text faces: the title's, and the small one of
// everything else.
type faces struct{ title, small font.Face }

func newFaces() (faces, error) {
	f, err := sans()
	if err != nil {
		return faces{}, err
	}
	var fs faces
	for _, x := range []struct {
		face *font.Face
		size float64
	}{{&fs.title, titleSize}, {&fs.small, smallSize}} {
		if *x.face, err = opentype.NewFace(f, &opentype.FaceOptions{Size: x.size, DPI: dpi, Hinting: font.HintingNone}); err != nil {
			return faces{}, fmt.Errorf("chart: font: %w", err)
		}
	}
	return fs, nil
}

// Where a text stands from its anchor, as fractions of its box: 0 puts
// the box's left (top) edge at the anchor, 1 its right (bottom) edge.
const (
	start  = 0.0
	middle = 0.5
	end    = 1.0
)

// textSize is s's advance width and line height in px.
func textSize(f font.Face, s string) (w, h float64) {
	m := f.Metrics()
	return fix(font.MeasureString(f, s)), fix(m.Ascent + m.Descent)
}

// text writes s in col, its box placed on (x, y) by ax and ay (start,
// middle, end).
func (c *canvas) text(f font.Face, s string, x, y, ax, ay float64, col color.Color) {
	w, h := textSize(f, s)
	left, top := x-ax*w, y-ay*h
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: f,
		Dot: fixed.Point26_6{X: unfix(left), Y: unfix(top) + f.Metrics().Ascent}}
	d.DrawString(s)
}

func fix(v fixed.Int26_6) float64   { return float64(v) / 64 }
func unfix(v float64) fixed.Int26_6 { return fixed.Int26_6(v * 64) }
