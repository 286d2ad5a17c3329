package trading

import (
	"context"
	"errors"
	"sync"
)

// flights collapses the asks of one symbol that run at once in a process
// into one: the first asks the sources, the others wait for its answer.
// The cache alone does not: asks that miss it together would each call
// the providers (inline queries run side by side, a query per keystroke).
type flights struct {
	mu     sync.Mutex
	m      map[string]*flight
	joined func() // tests: an ask waits for another's
}

type flight struct {
	done chan struct{}
	q    Quote
	err  error
}

// do runs ask for key unless one runs already, whose answer it returns. A
// waiter whose own context is still live asks itself when the first ask
// ended only because its caller gave up.
func (f *flights) do(ctx context.Context, key string, ask func() (Quote, error)) (Quote, error) {
	f.mu.Lock()
	if fl, ok := f.m[key]; ok {
		f.mu.Unlock()
		if f.joined != nil {
			f.joined()
		}
		select {
		case <-fl.done:
		case <-ctx.Done():
			return Quote{}, ctx.Err()
		}
		if ctx.Err() == nil && (errors.Is(fl.err, context.Canceled) || errors.Is(fl.err, context.DeadlineExceeded)) {
			return ask()
		}
		return fl.q, fl.err
	}
	if f.m == nil {
		f.m = map[string]*flight{}
	}
	fl := &flight{done: make(chan struct{})}
	f.m[key] = fl
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.m, key)
		f.mu.Unlock()
		close(fl.done)
	}()
	fl.q, fl.err = ask()
	return fl.q, fl.err
}
