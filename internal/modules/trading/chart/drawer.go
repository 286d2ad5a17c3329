package chart

import "sync"

// Drawer turns a chart's input into PNG bytes.
type Drawer interface {
	Price(Series) ([]byte, error)
	Value(Portfolio) ([]byte, error)
}

var (
	mu         sync.Mutex
	registered Drawer
)

// Register makes d this binary's drawer; package draw registers itself
// when imported (as database/sql drivers do).
func Register(d Drawer) {
	mu.Lock()
	defer mu.Unlock()
	registered = d
}

// drawer is the registered drawer, or else the helper beside the
// executable.
func drawer() Drawer {
	mu.Lock()
	defer mu.Unlock()
	if registered != nil {
		return registered
	}
	return Exec{}
}
