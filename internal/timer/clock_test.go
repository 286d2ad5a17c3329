package timer_test

import (
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// sleepClock is a test clock whose sleeps (timer.WithAfter) end when the
// test moves it past them.
type sleepClock struct {
	*apptest.Clock
	mu    sync.Mutex
	woke  *sync.Cond
	waits []sleep
}

type sleep struct {
	until time.Time
	d     time.Duration
	ch    chan time.Time
}

func newSleepClock(t time.Time) *sleepClock {
	c := &sleepClock{Clock: apptest.NewClock(t)}
	c.woke = sync.NewCond(&c.mu)
	return c
}

// After is timer.WithAfter's sleep on this clock.
func (c *sleepClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if now := c.Now(); d <= 0 {
		ch <- now
	} else {
		c.waits = append(c.waits, sleep{now.Add(d), d, ch})
		c.woke.Broadcast()
	}
	return ch
}

// sleepers waits until n sleeps of at most longest are pending and
// returns the earliest end of those.
func (c *sleepClock) sleepers(n int, longest time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		var first time.Time
		count := 0
		for _, s := range c.waits {
			if s.d > longest {
				continue
			}
			if count++; first.IsZero() || s.until.Before(first) {
				first = s.until
			}
		}
		if count >= n {
			return first
		}
		c.woke.Wait()
	}
}

// advance moves the clock to t and ends the sleeps due by then.
func (c *sleepClock) advance(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.Now()) {
		c.Set(t)
	}
	kept := c.waits[:0]
	for _, s := range c.waits {
		if s.until.After(t) {
			kept = append(kept, s)
			continue
		}
		s.ch <- t
	}
	c.waits = kept
}

// forget drops the sleeps nobody waits on any more (a poked Wake's).
func (c *sleepClock) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = nil
}
