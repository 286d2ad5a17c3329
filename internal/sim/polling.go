package sim

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/container"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// The polling stretches drive the real poller one update at a time (and
// now and then by a burst of many at once, burst.go):
// the life pushes the update to the fake's getUpdates and the poller's
// handler reports each run of it and waits for the life to let it go on,
// so the life moves in lockstep with the poller and no order is left to
// its goroutines. Its retries wait for nothing: the life moves the clock a
// minute per failed run, as Telegram's webhook redelivery does.

// maxPollRuns bounds the runs of one update by the poller: the core drops
// an update after 5 failed ones, so more is a poller that never lets go.
const maxPollRuns = 12

// pollWatch is the update the life waits for the poller to handle.
type pollWatch struct {
	id      int64
	results chan error    // each run's outcome
	next    chan struct{} // the life's leave to go on
	fault   atomic.Pointer[fault]
	down    atomic.Bool // the next run finds the store down
	// Its inbox item: the poller writes it while the handler runs and
	// deletes it once handled; a step ends with neither under way.
	written, deleted chan struct{}
	wrote, dropped   sync.Once
}

// inboxed notes a landed write (or delete) of the watched update's inbox
// item by any process.
func (l *life) inboxed(id int64, write bool) {
	w := l.watch.Load()
	switch {
	case w == nil || w.id != id:
	case write:
		w.wrote.Do(func() { close(w.written) })
	default:
		w.dropped.Do(func() { close(w.deleted) })
	}
}

// startPoller runs p's poller until p stops or dies, while it holds the
// polling lease, as the container does; its runner is the container's,
// asking the lease whether another process's run is gone.
func (l *life) startPoller(p *proc, client *telegram.Client, store storage.KVProvider, log *slog.Logger) {
	ls := l.pollLease(p, store)
	runner := container.PollRunner(ls)
	handle := func(ctx context.Context, u *models.Update) (err error) {
		p.run(func() { err = p.handle(core.RunAs(ctx, runner), u) })
		return err
	}
	p.poller = poller.New(client, store.For(storage.CoreNamespace), handle, poller.WithLogger(log),
		poller.WithWait(p.wait), poller.WithClock(l.clk.Now))
	ctx, cancel := context.WithCancel(context.Background())
	p.stop, p.ran = cancel, make(chan struct{})
	holding := make(chan struct{})
	l.running.Go(func() {
		defer close(p.ran)
		_ = ls.Hold(ctx, func(held context.Context) {
			close(holding)
			_ = p.poller.Run(held)
		}, nil)
	})
	select { // its write lands now, not amid what the life does next
	case <-holding:
	case <-p.ran:
	}
}

// wait is the poller's pause: none for a live process, whose pace the
// lockstep sets; a dead one's lasts until the life ends.
func (p *proc) wait(ctx context.Context, _ time.Duration) error {
	if p.dead.Load() {
		select {
		case <-p.l.end:
		case <-ctx.Done():
		}
	}
	return ctx.Err()
}

// handle runs one update for the poller; a run of the watched update is
// reported to the life, which decides what the next run meets.
func (p *proc) handle(ctx context.Context, u *models.Update) error {
	if p.dead.Load() {
		// A dead process runs nothing: no run of a burst's update is
		// counted, and a watched update's fault and outage stay the live
		// poller's.
		<-p.l.end
		return errKilled
	}
	if b := p.l.burstOn.Load(); b != nil && b.byID[u.ID] != nil {
		return b.run(ctx, p, u)
	}
	w := p.l.watch.Load()
	if w == nil || w.id != u.ID {
		return p.app.HandleUpdate(ctx, u) // a duplicate of an update handled before
	}
	f := w.fault.Swap(nil)
	p.tg.Store(f)
	p.l.store.SetDown(w.down.Load())
	err := p.app.HandleUpdate(withFault(ctx, f), u)
	if p.dead.Load() {
		return err
	}
	p.l.store.SetDown(false)
	p.tg.Store(nil)
	select { // a life that stopped at a failed checker waits for nothing
	case w.results <- err:
	case <-p.l.end:
		return err
	}
	select {
	case <-w.next:
	case <-p.l.end:
	}
	return err
}

// poll hands d to the polling container: pushed to getUpdates, run by the
// poller until handled; a poller that dies on it is followed by a new one,
// which finds it in the inbox or at Telegram again.
func (l *life) poll(d *delivery, f *fault) bool {
	w := &pollWatch{id: d.u.ID, results: make(chan error), next: make(chan struct{}),
		written: make(chan struct{}), deleted: make(chan struct{})}
	w.fault.Store(f)
	w.down.Store(l.outageNow())
	l.watch.Store(w)
	defer l.watch.Store(nil)
	l.fake.Push(d.u)
	for attempt := 1; ; attempt++ {
		// The poller as it is, dead or not: a run let go on may have
		// killed it already, and its death is this loop's to see.
		p := l.live[rtPoller]
		select {
		case err := <-w.results:
			l.hist.line("  attempt %d poller handled=%t", attempt, err == nil)
			if err == nil {
				l.pollDone(w, p)
				return true
			}
			if attempt >= maxPollRuns {
				l.fail("answers", "%s: the poller ran it %d times without an end", d.what, attempt)
				w.next <- struct{}{}
				return false
			}
			l.pollRetry(w)
			w.next <- struct{}{}
		case <-p.died:
			l.store.SetDown(false)
			l.pollRetry(w) // before the new poller can run it
			l.crashed(p, attempt)
		}
	}
}

// pollDone lets the handled update go once its inbox item is written (the
// handler holds it until then, so the write comes), and waits for the
// item's delete: no inbox write of it is left under way for a checker or
// the next step to see.
func (l *life) pollDone(w *pollWatch, p *proc) {
	if l.until(w.written, p) {
		w.next <- struct{}{}
		l.until(w.deleted, p)
	}
}

// until waits for c to close; false when p died or the life ended first.
func (l *life) until(c chan struct{}, p *proc) bool {
	select {
	case <-c:
		return true
	case <-p.died:
	case <-l.end:
	}
	return false
}

// pollRetry readies the next run: a minute later, maybe in an outage.
func (l *life) pollRetry(w *pollWatch) {
	l.hist.count("poller-retries", 1)
	l.clk.Add(time.Minute)
	w.down.Store(l.outageNow())
}

// crashed: p died in attempt; a new process of its runtime takes its
// place (a container restarts; Lambda starts a new environment).
func (l *life) crashed(p *proc, attempt int) {
	l.hist.line("  attempt %d %s killed", attempt, p.kind)
	l.hist.count("crashes-"+p.kind.String(), 1)
	l.killed = append(l.killed, p.name)
	if l.live[p.kind] == p {
		l.live[p.kind] = l.newProc(p.kind)
	}
	if l.replicas[p.kind] == p {
		l.replicas[p.kind] = nil
	}
}
