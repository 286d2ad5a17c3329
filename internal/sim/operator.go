package sim

import (
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Backend is a store the operator works with, named as the tools name it
// ("bolt file /data/miti99bot.db"): the migrator keys its checkpoints by
// these names.
type Backend struct {
	Name string
	storage.KVProvider
}

// Operator is the operator's side of a life: cutovers between Home (the
// life's Config.Store) and Far, rollbacks, snapshots and restores, at
// moments the seed picks.
type Operator struct {
	Home, Far Backend
	// Empty opens an empty store of like's backend: where the operator
	// restores a store that was lost.
	Empty func(like Backend) storage.KVProvider
	// Dir holds the snapshots (the container's BACKUP_DIR).
	Dir string
	// Careless makes the rollback a copy that reads no checkpoint and
	// overwrites (an older migrator's) instead of the mirror, as
	// docs/cutover.md forbids: for the test that the life then stops at
	// the items it brings back.
	Careless bool
	// Instant makes a cutover take no simulated time: the operator acts
	// between two steps, no update waits and no slot is paused (for the
	// test that the operator changes nothing the users see but that).
	Instant bool
}

// The operator's events.
const (
	opCutover  = "cutover"  // docs/cutover.md forward, or a rollback when the bot is on Far
	opSnapshot = "snapshot" // botctl backup create, or the container's scheduled one
	opDrill    = "restore drill"
	opDisaster = "disaster" // the store lost, restored from the snapshot just taken
)

type opEvent struct {
	at   time.Time
	kind string
}

// operator is the operator's state in a life.
type operator struct {
	*Operator
	plan     []opEvent
	sides    [2]Backend // home, far
	on       int        // the side the bot runs on
	moves    int        // transfers between the sides so far
	snaps    []snap
	lastInto [2]int     // per side, the number of the last transfer into it (0: none)
	hot      *hotSnap   // a snapshot armed for the next step
	rw, rc   *rand.Rand // the windows' draws, the migrator's clock's
	paused   time.Time  // when the last window began
}

// newPlan draws the operator's moments from its own stream of the seed,
// so that a life draws the same users' steps with or without it: the bot
// moves to Far and back a few times (cutover, rollback, second cutover,
// and every 40 days another rollback and cutover), a snapshot early and
// about weekly, a disaster once, and a restore drill near the end.
func newPlan(seed uint64, days int) []opEvent {
	r := rand.New(rand.NewPCG(seed, 0x6f70657261746f72))
	span := float64(time.Duration(days) * 24 * time.Hour)
	at := func(lo, hi float64) time.Time {
		return Start.Add(time.Duration((lo + r.Float64()*(hi-lo)) * span))
	}
	var plan []opEvent
	moves := 3 + 2*(days/40)
	for i := range moves {
		lo := (float64(i) + 0.3) / float64(moves+1)
		plan = append(plan, opEvent{at(lo, lo+0.5/float64(moves+1)), opCutover})
	}
	plan = append(plan, opEvent{at(0.02, 0.1), opSnapshot})
	for w := 1; w < days/7; w++ {
		plan = append(plan, opEvent{at(float64(w*7)/float64(days), float64(w*7+7)/float64(days)), opSnapshot})
	}
	plan = append(plan, opEvent{at(0.3, 0.95), opDisaster}, opEvent{at(0.9, 0.98), opDrill})
	slices.SortStableFunc(plan, func(a, b opEvent) int { return a.at.Compare(b.at) })
	return plan
}

// operate runs the operator's events due by now, between two steps: a
// quiet point, as the runbooks want (schedules paused, no update in flight).
func (l *life) operate(now time.Time) {
	if l.op == nil {
		return
	}
	l.settleHotSnapshot()
	for len(l.op.plan) > 0 && !l.op.plan[0].at.After(now) {
		ev := l.op.plan[0]
		l.op.plan = l.op.plan[1:]
		what := ev.kind
		if ev.kind == opCutover && l.op.on == 1 {
			what = "rollback"
		}
		l.hist.op("step %d operator %s", l.step, what)
		switch ev.kind {
		case opCutover:
			paused := l.clk.Now()
			l.move()
			if !l.op.Instant {
				l.op.paused = paused
				l.resume(paused.Add(l.window(paused)))
			}
		case opSnapshot:
			l.armHotSnapshot()
		case opDrill:
			l.drill()
		case opDisaster:
			l.disaster()
		}
	}
}

// serving is the side the bot runs on; other, the one it does not.
func (o *operator) serving() Backend { return o.sides[o.on] }

// switchTo starts the bot on side i, as the operator starts the other
// deployment, and checks the store it now runs on.
func (l *life) switchTo(i int, event string) {
	l.op.on = i
	l.cfg.Store = l.op.sides[i].KVProvider // what the checkers read
	l.boot(l.cfg.Store)
	l.afterEvent(event)
}

// afterEvent holds every checker that reads the store.
func (l *life) afterEvent(event string) {
	l.checkKeyspace(event)
	l.endOfDay()
}

// op is an operator's line: in the history, not in what the users saw.
func (h *history) op(format string, args ...any) {
	line := fmt.Sprintf(format, args...) + "\n"
	h.h.Write([]byte(line))
	if h.trace != nil {
		_, _ = io.WriteString(h.trace, line)
	}
}

func (h *history) usersDigest() string { return hex.EncodeToString(h.users.Sum(nil))[:16] }
