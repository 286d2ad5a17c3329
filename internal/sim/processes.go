package sim

import (
	"math/rand/v2"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-telegram/bot/models"
)

// processes are the life's runtimes: which one serves the stretch, the
// live process of each, the second replicas that serve an update at once,
// and the processes killed during the delivery under way.
type processes struct {
	rf       *rand.Rand // the runtimes' and faults' own draws: the people's life is the same whatever they do
	rb       *rand.Rand // the bursts' own draws (burst.go)
	rw       *rand.Rand // the kills after a run's own draws (hookwindow.go)
	rt       runtime
	live     [nRuntimes]*proc
	replicas [nRuntimes]*proc
	procs    int // processes started, for their names
	front    *front
	settings map[string]string

	current   *models.Update // the update being delivered
	killed    []string       // processes killed while delivering it
	lastFault *fault         // its fault, if any
	late      *lateOutage
	watch     atomic.Pointer[pollWatch]
	burstOn   atomic.Pointer[burst] // the burst under way, if any
	racing    atomic.Pointer[racer] // a Cancel armed to race its reminder's send (timerrace.go)

	// end is closed when the life ends: a dead process's calls, held until
	// then, fail, and running (every process goroutine) drains.
	end     chan struct{}
	stopped sync.Once
	running sync.WaitGroup
}

// startProcesses starts the Bot API front and the first runtime.
func (l *life) startProcesses(t testing.TB, seed uint64) {
	l.rf = rand.New(rand.NewPCG(seed, 0x72756e74696d65))
	l.rb = rand.New(rand.NewPCG(seed, 0x6275727374))
	l.rw = rand.New(rand.NewPCG(seed, 0x686f6f6b73)) // "hooks": the cutover window has "window"
	l.end = make(chan struct{})
	l.late = newLateOutage()
	l.front = &front{l: l, procs: map[string]*proc{}}
	srv := httptest.NewServer(l.front)
	l.front.url = srv.URL
	t.Cleanup(srv.Close)
	t.Cleanup(l.stopProcesses) // before the front closes: it waits for the calls held
	l.rt = runtime(l.rf.IntN(int(nRuntimes)))
	l.app = l.serving(l.rt).app
	l.hist.line("runtime %s", l.rt)
}

// stopProcesses ends the life's processes: the live pollers stop, and
// the dead processes' held calls fail, so that every goroutine returns.
// A test may end a life before its cleanup does: the second call waits.
func (l *life) stopProcesses() {
	l.stopped.Do(func() {
		for _, p := range l.live {
			if p != nil && p.stop != nil {
				p.stop()
			}
		}
		for _, p := range l.front.all() {
			if p.stop != nil {
				p.stop()
			}
		}
		close(l.end)
	})
	l.running.Wait()
}

func (f *front) all() []*proc {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*proc, 0, len(f.procs))
	for _, p := range f.procs {
		out = append(out, p)
	}
	return out
}
