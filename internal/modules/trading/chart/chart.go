// Package chart is what the markets draw: a price over a period (candles
// where the source has OHLC, else a line, the high and the low marked)
// and a portfolio's value over time, as 800 x 500 PNG, by a Drawer the
// markets are given (package draw's, on golang.org/x/image, or a test's).
package chart

import (
	"cmp"
	"errors"
	"fmt"
	"time"
)

// The picture's size in pixels.
const (
	Width  = 800
	Height = 500
)

// Bar is one period of prices; a source with one price per time gives
// O = H = L = C.
type Bar struct {
	T          time.Time
	O, H, L, C float64
}

// MinBars is the fewest prices a price chart is drawn from: fewer would be
// a picture of almost nothing, so the caller says so in words instead.
const MinBars = 5

// MinPoints is the fewest days a value chart is drawn from.
const MinPoints = 2

// ErrTooFew: fewer than MinBars prices (MinPoints days).
var ErrTooFew = errors.New("chart: too few prices to draw")

// Series is a price chart's input.
type Series struct {
	Title string // "BTC 7d: $60,000.50, +2.31% (+$1,234.00)"
	Bars  []Bar  // oldest first
	OHLC  bool   // the bars have real opens, highs and lows
	Money Format
	// Offset is the zone the X axis' times are shown in, east of UTC.
	Offset time.Duration
	// TimeFormat lays out the X axis' times ("15:04", "Jan 02").
	TimeFormat string
	Words      Words
}

// Words are what a chart writes besides numbers, in its reader's
// language: the caller's, as the drawer knows no language. An empty word
// is the English one.
type Words struct {
	High, Low             string // the extremes' marks: "H", "L"
	Cash, Holdings, Total string // the value chart's legend
}

// Or are w with each empty word the English one.
func (w Words) Or() Words {
	return Words{High: cmp.Or(w.High, "H"), Low: cmp.Or(w.Low, "L"),
		Cash: cmp.Or(w.Cash, "cash"), Holdings: cmp.Or(w.Holdings, "holdings"), Total: cmp.Or(w.Total, "total")}
}

// Point is a portfolio's value on one day: cash, holdings at that day's
// prices, and what had been deposited in all by then.
type Point struct {
	T                         time.Time
	Cash, Holdings, Deposited float64
}

// Portfolio is a value chart's input: daily points, oldest first. A day
// without a point is a day the job did not run: the line goes straight
// across it, no point is made up for it.
type Portfolio struct {
	Title  string
	Points []Point
	Money  Format
	Offset time.Duration
	// TimeFormat lays out the X axis' days ("": "Jan 02").
	TimeFormat string
	Words      Words
}

// Check is ErrTooFew when s has fewer than MinBars prices.
func (s Series) Check() error {
	if len(s.Bars) < MinBars {
		return fmt.Errorf("%w: %d of %d", ErrTooFew, len(s.Bars), MinBars)
	}
	return nil
}

// Check is ErrTooFew when s has fewer than MinPoints days.
func (s Portfolio) Check() error {
	if len(s.Points) < MinPoints {
		return fmt.Errorf("%w: %d of %d days", ErrTooFew, len(s.Points), MinPoints)
	}
	return nil
}

func (Series) isChart()    {}
func (Portfolio) isChart() {}
