package app

import (
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestAHelpersJobIsCountedUntilItHasRun(t *testing.T) {
	h := newHelpers()
	var wg sync.WaitGroup
	ran := make([]bool, 50)
	for i := range ran { // one after another: idle helpers take the later ones
		h.Go(&wg, func() { ran[i] = true })
		wg.Wait()
	}
	for i, ok := range ran {
		if !ok {
			t.Fatalf("job %d had not run when Wait returned", i)
		}
	}
}

func TestAJobDoesNotWaitForABusyHelper(t *testing.T) {
	h := newHelpers()
	ctx := testenv.Context(t)
	release := make(chan struct{})
	var busy sync.WaitGroup
	h.Go(&busy, func() { <-release })

	var wg sync.WaitGroup
	done := make(chan struct{})
	h.Go(&wg, func() { close(done) })
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the second job waited for the first helper to be free")
	}
	wg.Wait()
	close(release)
	busy.Wait()
}
