// Package draw draws the charts itself on golang.org/x/image's rasteriser
// and an embedded Liberation Sans (pure Go, no cgo, so the same input gives
// the same bytes on every host). A plotting library would be linked, and
// its init paid, by every start of the Lambda, most of which draw nothing.
package draw

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// Drawer draws in this process; it holds no state, so one serves every
// market and goroutine.
type Drawer struct{}

var _ chart.Drawer = (*Drawer)(nil)

// New returns the drawer.
func New() *Drawer { return &Drawer{} }

// Draw renders c as PNG. A render is not interrupted once begun (tens of
// milliseconds of CPU); a ctx already done draws nothing.
func (*Drawer) Draw(ctx context.Context, c chart.Chart) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	if err := finite(c); err != nil {
		return nil, err
	}
	switch c := c.(type) {
	case chart.Series:
		return price(c)
	case chart.Portfolio:
		return value(c)
	}
	return nil, fmt.Errorf("chart: cannot draw a %T", c)
}

// errNotANumber: a price or an amount is NaN or infinite; no axis can
// hold it, so nothing is drawn.
var errNotANumber = errors.New("chart: a value is not a finite number")

// finite is errNotANumber unless every value of c is a finite number.
func finite(c chart.Chart) error {
	var vs []float64
	switch c := c.(type) {
	case chart.Series:
		for _, b := range c.Bars {
			vs = append(vs, b.O, b.H, b.L, b.C)
		}
	case chart.Portfolio:
		for _, p := range c.Points {
			vs = append(vs, p.Cash, p.Holdings, p.Deposited, p.Cash+p.Holdings)
		}
	}
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errNotANumber
		}
	}
	return nil
}
