package draw

import "image/color"

// The picture: 800 x 500 px (600 x 375 points at 96 dpi), text sized to
// stay readable when a phone shows it about 350 px wide.
const dpi = 96

// pts is a length in points, in px.
func pts(v float64) float64 { return v * dpi / 72 }

// Sizes of the text, in points.
const (
	titleSize = 15
	smallSize = 12 // ticks' labels, marks and the legend
)

// Colours: a dark line, green up, red down.
var (
	ink           = color.RGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xff}
	grid          = color.RGBA{R: 0xe4, G: 0xe4, B: 0xe4, A: 0xff}
	line          = color.RGBA{R: 0x1f, G: 0x6f, B: 0xd1, A: 0xff}
	up            = color.RGBA{R: 0x1a, G: 0x9b, B: 0x5a, A: 0xff}
	down          = color.RGBA{R: 0xd1, G: 0x3b, B: 0x3b, A: 0xff}
	muted         = color.RGBA{R: 0x88, G: 0x88, B: 0x88, A: 0xff}
	holdingsColor = color.RGBA{R: 0xe0, G: 0x8a, B: 0x1e, A: 0xff}
)
