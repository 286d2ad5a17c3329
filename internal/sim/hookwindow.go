package sim

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// The window after a run: the core runs the command hooks (stats' count),
// then records the update as handled. A kill inside it is chosen by what
// the call is, not by its place among the process's calls (a hook's swap
// may be tried again): the record's write (the update's record turning
// done), after the count landed, or the hook's (the sender's tally),
// before any record; the process dies before or after the chosen one
// lands.

// windowOdds: one counted command's first attempt in this many meets a
// kill in its window (drawn from the window's own stream of the seed).
const windowOdds = 30

// The kills in the window, after the fault kinds of faults.go.
const (
	killRecord      = nFaultKinds + iota // before the record lands; the count landed
	killRecordAfter                      // the record lands, and the process dies
	killHook                             // before the count lands; no record yet
	killHookAfter                        // the count lands, and the process dies before the record
	nWindowKinds
)

var windowNames = [...]string{"window-kill-record", "window-kill-record-after", "window-kill-hook", "window-kill-hook-after"}

// hookWindow is what a kill in the window after a run waits for and kills at.
type hookWindow struct {
	id      int64  // the update
	tally   string // the stats key of its sender
	before  int64  // the sender's count of the command before it
	partner chan struct{}
	once    sync.Once
}

// pickWindowKill draws a kill in the window of d's first attempt, for a
// command that counts (its hook writes).
func (l *life) pickWindowKill(d *delivery) *fault {
	if d.cmd == "" || d.user == 0 || d.again || l.rw.IntN(windowOdds) != 0 {
		return nil
	}
	f := &fault{kind: killRecord + faultKind(l.rw.IntN(int(nWindowKinds-killRecord))), where: "window", k: 1}
	f.win = &hookWindow{id: d.u.ID, tally: "u:" + strconv.FormatInt(d.user, 10), partner: make(chan struct{}),
		before: l.tallyOf(d.user, d.cmd)}
	return f
}

// role names a write of the window: "record", "hook" or "" for another.
func (wd *hookWindow) role(ns, key string, val []byte) string {
	switch ns {
	case "stats":
		if key == wd.tally {
			return "hook"
		}
	case storage.CoreNamespace:
		var rec struct {
			ID    int64  `json:"id"`
			State string `json:"state"`
		}
		if json.Unmarshal(val, &rec) == nil && rec.ID == wd.id && rec.State == "done" {
			return "record"
		}
	}
	return ""
}

// swap is a compare-and-swap under a kill in the window: the partner's
// lands and lets the chosen one go on, which kills the process.
func (w *procNS) swap(ctx context.Context, key string, val []byte, op func() error) (bool, error) {
	f := faultOf(ctx)
	if f == nil || f.win == nil {
		return false, nil
	}
	role := f.win.role(w.ns, key, val)
	if role == "" {
		return false, nil
	}
	target := "record"
	if f.kind >= killHook {
		target = "hook"
	}
	p := w.s.p
	// A swap that lost to a racer (the tally changed since this process
	// read it) has landed nothing: its caller reads and tries again.
	if role != target {
		err := op()
		if !errors.Is(err, storage.ErrConflict) {
			f.win.once.Do(func() { close(f.win.partner) })
		}
		return true, err
	}
	if target == "record" { // the count comes first: it has landed, or this waits for it
		select {
		case <-f.win.partner:
		case <-p.l.end:
			return true, errKilled
		}
	}
	if f.kind == killRecordAfter || f.kind == killHookAfter {
		if err := op(); err != nil {
			return true, err
		}
	}
	f.mu.Lock()
	f.fired = true
	f.mu.Unlock()
	p.kill()
	<-p.l.end
	return true, errKilled
}

// Recounted names a command counted twice: a process killed after its
// count landed and before its record, whose redelivery ran it again.
const Recounted = "recounted"

// KilledCount names a count lost for good: a process killed after its
// record landed and before its count, whose redelivery is a duplicate.
const KilledCount = "killed-count"

// tallyOf is how often the store counted cmd for user.
func (l *life) tallyOf(user int64, cmd string) int64 {
	var got struct {
		Cmds map[string]int64 `json:"cmds"`
	}
	_ = l.cfg.Store.For("stats").GetJSON(context.Background(), "u:"+strconv.FormatInt(user, 10), &got)
	return got.Cmds[cmd]
}

// checkWindowCount: a command whose process was killed in its window is
// counted exactly once (not at all when it was given up) all the same.
func (l *life) checkWindowCount(d *delivery) {
	f := l.lastFault
	if f == nil || f.win == nil || !f.didFire() {
		return
	}
	want := int64(0)
	if d.handled && !l.logs.said(d.u.ID, dropped) {
		want = 1
	}
	got := l.tallyOf(d.user, d.cmd) - f.win.before
	if got == want {
		return
	}
	name := "stats"
	switch {
	case f.kind == killRecord && got == want+1:
		name = Recounted
	case f.kind == killHook && got == want-1:
		name = KilledCount
	}
	l.fail(name, "%s: killed at %s: counted %d times, handled %d", d.what, f.kind, got, want)
	l.stats.add(d.user, d.cmd) // the model takes the store's count from here
	l.stats.sent[d.user][d.cmd] += got - want - 1
}
