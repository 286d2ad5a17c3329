package chart

import "context"

// Chart is what a Drawer draws: a Series or a Portfolio, nothing else.
type Chart interface {
	// Check is ErrTooFew when there is too little to draw.
	Check() error
	isChart()
}

var (
	_ Chart = Series{}
	_ Chart = Portfolio{}
)

// Drawer turns a chart into PNG bytes. The markets are given one where
// they are built: package draw's in both runtimes, a fake in tests.
type Drawer interface {
	Draw(ctx context.Context, c Chart) ([]byte, error)
}
