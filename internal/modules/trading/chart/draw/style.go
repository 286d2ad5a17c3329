package draw

import (
	"image/color"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// The picture: 800 x 500 px (600 x 375 points at 96 dpi), text sized to
// stay readable when a phone shows it about 350 px wide.
const (
	dpi = 96
)

var (
	pageW = vg.Length(chart.Width) * vg.Inch / dpi
	pageH = vg.Length(chart.Height) * vg.Inch / dpi
)

// Sizes of the text, in points.
const (
	titleSize = 15
	tickSize  = 12
	labelSize = 12
)

// Colours: a dark line, green up, red down.
var (
	ink   = color.RGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xff}
	grid  = color.RGBA{R: 0xe4, G: 0xe4, B: 0xe4, A: 0xff}
	line  = color.RGBA{R: 0x1f, G: 0x6f, B: 0xd1, A: 0xff}
	up    = color.RGBA{R: 0x1a, G: 0x9b, B: 0x5a, A: 0xff}
	down  = color.RGBA{R: 0xd1, G: 0x3b, B: 0x3b, A: 0xff}
	muted = color.RGBA{R: 0x88, G: 0x88, B: 0x88, A: 0xff}
)

// sans is Liberation Sans (the library's embedded fonts), plainer on a
// small screen than its default serif.
func sans(size vg.Length, bold bool) font.Font {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	if bold {
		f.Weight = 700
	}
	return f
}

// newPlot is a plot in the house style: sans text sized for phones, a
// light grid, times on X in zone, money on Y.
func newPlot(title string, offset time.Duration, timeFormat string, money chart.Format) *plot.Plot {
	zone := time.FixedZone("", int(offset/time.Second))
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(titleSize, true)
	p.Title.TextStyle.Color = ink
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Label.Font = sans(tickSize, false)
		a.Tick.Label.Color = ink
		a.Label.TextStyle.Font = sans(labelSize, false)
		a.LineStyle.Color = muted
		a.Tick.LineStyle.Color = muted
	}
	p.X.Tick.Marker = plot.TimeTicks{Format: timeFormat, Time: func(t float64) time.Time { return time.Unix(int64(t), 0).In(zone) }}
	p.Y.Tick.Marker = moneyTicks{money}
	p.Legend.TextStyle.Font = sans(labelSize, false)
	return p
}

// moneyTicks labels the Y axis in the market's money.
type moneyTicks struct{ money chart.Format }

func (m moneyTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = m.money.String(ticks[i].Value)
		}
	}
	return ticks
}
