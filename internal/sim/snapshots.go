package sim

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// snap is a snapshot the operator took, and what the bot's own writes had
// left in the store at that moment.
type snap struct {
	path  string
	step  int
	model map[nsKey][]byte
	gone  map[nsKey]bool
	open  map[nsKey][]alt // writes with no answer then (latewrite.go)
}

// snapshot is `botctl backup create` (the container's scheduled job takes
// the same) of the store the bot runs on, between two steps.
func (l *life) snapshot() snap {
	l.t.Helper()
	s := snap{path: filepath.Join(l.op.Dir, fmt.Sprintf("snap-%d.tar", len(l.op.snaps)+1)), step: l.step}
	s.model, s.gone, s.open = l.keys.copy()
	sum, err := backup.WriteFile(context.Background(), l.cfg.Store, s.path, backup.Options{Source: l.op.serving().Name, Now: l.clk.Now})
	if err != nil {
		l.fail("operator", "snapshot: %v", err)
	}
	l.op.snaps = append(l.op.snaps, s)
	l.hist.op("  snapshot: %d items", sum.Items)
	l.hist.count("snapshots", 1)
	return s
}

// restore is `botctl backup restore` of s into the empty store dst: the
// archive checked whole, restored, then verified item by item against it
// (backup.Restore's own verify), and dst then holds exactly what the bot's
// writes had left when s was taken.
func (l *life) restore(s snap, dst endpoint, event string) {
	l.t.Helper()
	ctx := context.Background()
	a, err := backup.Open(s.path, l.op.Dir)
	if err != nil {
		l.fail("operator", "%s: opening the snapshot of step %d: %v", event, s.step, err)
		return
	}
	defer a.Close(ctx)
	// With the parked updates: the check below is that a restore carries
	// every write of the bot's (leaving them out is backup's own test).
	rep, err := backup.Restore(ctx, a, dst, backup.RestoreOptions{Parked: true})
	if err != nil {
		l.fail("operator", "%s: restoring the snapshot of step %d: %v", event, s.step, err)
		return
	}
	held, err := holdings(ctx, dst)
	if err != nil {
		l.t.Fatal(err)
	}
	if bad := diffKeys(held, s.model, s.gone, s.open); len(bad) > 0 {
		l.fail("keyspace", "%s: the snapshot of step %d restored %d keys unlike the bot's writes then: %s", event, s.step, len(bad), first(bad, 5))
	}
	// How many items a snapshot taken in flight holds is the scheduler's.
	l.hist.op("  restored the snapshot of step %d: the bot's writes then, item by item", s.step)
	l.hist.note("  %d items written, %d checkpoints", rep.Copy.Written, rep.Checkpoints)
}

// drill is docs/backup.md's monthly test: the newest snapshot restored
// into memory, which touches nothing.
func (l *life) drill() {
	if len(l.op.snaps) == 0 {
		return
	}
	l.restore(l.op.snaps[len(l.op.snaps)-1], memory.New(), opDrill)
	l.hist.count("restore-drills", 1)
}

// disaster: the store the bot runs on is lost just after a snapshot, so
// nothing was written since and no model rewinds; the operator restores
// the snapshot into an empty store of the same backend, named as the lost
// one was (the same file path, database or table), and starts the bot on
// it. The migrator's checkpoints come back with it.
func (l *life) disaster() {
	s := l.snapshot()
	lost := l.op.serving()
	fresh := Backend{Name: lost.Name, KVProvider: l.op.Empty(lost)}
	l.restore(s, l.endpoint(fresh), opDisaster)
	l.op.sides[l.op.on] = fresh
	l.hist.count("disasters", 1)
	l.switchTo(l.op.on, opDisaster)
}
