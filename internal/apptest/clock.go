package apptest

import (
	"sync"
	"time"
)

// Clock is a settable clock for core.WithClock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Add moves the clock forward.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }
