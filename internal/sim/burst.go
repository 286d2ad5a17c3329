package sim

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/go-telegram/bot/models"
)

// A burst is many chats' updates queued at Telegram at once in a polling
// stretch, one chat with more than a getUpdates returns: the real poller
// serves them with its lanes, at its own pace, while one chat's first
// reply is held at the Bot API until every other chat is answered. The
// goroutines set the order between chats, so nothing the life keeps hangs
// on it: each update's calls are its own (its lane runs one at a time),
// and the history lists them chat by chat, chats sorted. Only what no
// other chat's order can change is sent: help, a greeting, an unknown
// command, chatter; each chat has its own sender, so no two lanes write
// one key.

// burstOdds: one step in this many in a polling stretch is a burst.
const burstOdds = 120

// heavyMin is the backlog of the heavy chat: past one getUpdates' 100.
const heavyMin = 101

// burstUpdate is one update of a burst and what became of it.
type burstUpdate struct {
	d     *delivery
	calls []Call // its calls, over every run
	runs  int
}

// burst is one burst under way: its updates, and what the poller did.
type burst struct {
	l     *life
	byID  map[int64]*burstUpdate // fixed once built: read without the lock
	chats map[int64][]*burstUpdate
	order []int64 // the chats, sorted
	slow  int64   // the chat whose first reply is held
	heavy int64   // the chat with more than a getUpdates returns (0: none)

	polls []burstFault // the getUpdates answers that go wrong, in order
	sends map[int64]burstFault

	mu       sync.Mutex
	left     int            // updates not handled yet
	others   int            // of them, not the slow chat's
	sent     map[int64]int  // sendMessage calls per chat
	held     bool           // the slow chat's reply was held
	parks    map[int64]bool // inbox items written and not deleted yet, by update
	landed   map[int64]bool // inbox items that landed: the offset may pass them
	parked   int            // inbox writes
	released chan struct{}  // closed when every other chat is answered
	settled  chan struct{}  // closed when all are handled and the inbox is clean
	problems chan string    // what a checker found in the poller's goroutines
	sendMu   sync.Mutex     // a scripted send failure goes to its own call
}

// maybeBurst draws whether the next act is preceded by a burst.
func (l *life) maybeBurst() {
	if l.rb.IntN(burstOdds) != 0 || l.rt != rtPoller {
		return
	}
	if b := l.newBurst(); len(b.byID) > 0 {
		l.runBurst(b)
	}
}

// runBurst queues b at Telegram, waits for the poller to handle all of
// it, and checks and records each chat's updates.
func (l *life) runBurst(b *burst) {
	l.step++
	l.wire.setStep(l.step)
	l.current, l.killed, l.lastFault = nil, nil, nil
	p := l.serving(rtPoller)
	l.hist.line("step %d burst of %d updates in %d chats, slow %d, heavy %d", l.step, len(b.byID), len(b.order), b.slow, b.heavy)
	l.hist.count("bursts", 1)
	l.hist.count("burst-updates", len(b.byID))
	for _, f := range b.polls {
		l.hist.line("  fault getUpdates %s", f)
		l.hist.count("burst-fault-getUpdates-"+f.String(), 1)
		l.fake.FailNext("getUpdates", f.failure(l))
	}
	for _, c := range b.order {
		if f, ok := b.sends[c]; ok {
			l.hist.line("  fault sendMessage %d #%d %s", c, f.k, f)
			l.hist.count("burst-fault-send-"+f.String(), 1)
		}
	}
	ups := make([]*models.Update, 0, len(b.byID))
	for _, bu := range b.byID {
		ups = append(ups, bu.d.u)
	}
	slices.SortFunc(ups, func(a, b *models.Update) int { return int(a.ID - b.ID) })
	l.burstOn.Store(b)
	l.fake.Push(ups...)
	problem := b.wait(p)
	l.burstOn.Store(nil)
	if problem != "" {
		l.fail("burst", "%s", problem)
	}
	b.mu.Lock()
	// How many the poller parked hangs on its pace: the trace only.
	l.hist.note("  parked %d", b.parked)
	if b.held {
		l.hist.count("burst-held", 1)
	}
	b.mu.Unlock()
	for _, c := range b.order {
		for _, bu := range b.chats[c] {
			l.burstChecked(bu)
		}
	}
}

// burstChecked records one handled update of a burst and checks what it
// got, as a delivery of its own.
func (l *life) burstChecked(bu *burstUpdate) {
	d := bu.d
	l.hist.line("  update %d %s runs=%d", d.u.ID, d.what, bu.runs)
	l.hist.calls(bu.calls, false)
	calls := l.excuseRepeats(d, bu.calls)
	l.checkAnswers(d, calls, true)
	if d.cmd != "" && !l.logs.said(d.u.ID, dropped) {
		l.stats.add(d.user, d.cmd)
	}
}

// wait is the life waiting for the poller: every update handled and the
// inbox clean, or a checker's finding, or the poller's death.
func (b *burst) wait(p *proc) string {
	select {
	case <-b.settled:
		return ""
	case s := <-b.problems:
		return s
	case <-p.died:
		return "the poller died in a burst"
	}
}

// run is the poller's handler for an update of b: the run's calls to its
// chat are the update's (a lane runs one update at a time), and a handled
// update must be its chat's oldest unhandled one.
func (b *burst) run(ctx context.Context, p *proc, u *models.Update) error {
	bu := b.byID[u.ID]
	chat := bu.d.chat.id
	from := b.l.wire.len()
	err := p.app.HandleUpdate(ctx, u)
	var mine []Call
	for _, c := range b.l.wire.since(from) {
		if c.Chat == chat {
			mine = append(mine, c)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bu.calls = append(bu.calls, mine...)
	bu.runs++
	switch {
	case bu.runs > maxPollRuns:
		b.report("update %d (%s): the poller ran it %d times without an end", u.ID, bu.d.what, bu.runs)
	case err != nil || bu.d.handled:
		return err
	}
	// Under b.mu: a getUpdates that began in the burst may read it after.
	bu.d.handled = true
	for _, before := range b.chats[chat] {
		if before == bu {
			break
		}
		if !before.d.handled {
			b.report("chat %d: update %d handled before update %d", chat, u.ID, before.d.u.ID)
		}
	}
	b.left--
	if chat != b.slow {
		if b.others--; b.others == 0 {
			close(b.released)
		}
	}
	b.settle()
	return nil
}

// report hands a finding to the life; the first one is enough.
func (b *burst) report(format string, args ...any) {
	select {
	case b.problems <- fmt.Sprintf(format, args...):
	default:
	}
}

// settle closes settled once every update is handled and no inbox item
// of the burst is left; the caller holds b.mu.
func (b *burst) settle() {
	if b.left == 0 && len(b.parks) == 0 {
		select {
		case <-b.settled:
		default:
			close(b.settled)
		}
	}
}
