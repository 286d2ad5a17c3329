package app

import (
	"sync"
	"time"
)

// helperIdle is how long a helper goroutine waits for more work before it
// ends: long enough to serve a busy bot's every update, short enough that
// an idle bot keeps none.
const helperIdle = 30 * time.Second

// helpers run the work an update does beside the finish (the command
// hooks) on goroutines kept between updates. A new goroutine per update
// starts with a small stack and grows it anew every time: measured, that
// copying was 3% of a /ping on the memory store (issue #19).
type helpers struct {
	work chan func() // unbuffered: a send succeeds only into an idle helper
}

func newHelpers() *helpers { return &helpers{work: make(chan func())} }

// Go runs f on an idle helper, or on a new one when none is idle, and
// counts it in wg.
func (h *helpers) Go(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	job := func() {
		defer wg.Done()
		f()
	}
	select {
	case h.work <- job:
	default:
		go h.serve(job)
	}
}

// serve runs job, then whatever work comes until it has waited helperIdle.
func (h *helpers) serve(job func()) {
	job()
	idle := time.NewTimer(helperIdle)
	defer idle.Stop()
	for {
		select {
		case job := <-h.work:
			job()
			idle.Reset(helperIdle)
		case <-idle.C:
			return
		}
	}
}
