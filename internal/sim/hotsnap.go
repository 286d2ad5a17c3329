package sim

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// hotSnap is a snapshot of the file store taken while an update is in
// flight, as the container's scheduled job takes it while the bot serves:
// started from inside the next step, at its first write, and checked once
// that step is over. bbolt copies the file inside one read transaction, so
// the archive must be the store at one instant: what the bot's writes had
// left after some number of the writes made meanwhile.
type hotSnap struct {
	snap
	inFlight bool   // started by the step's first write (the file store)
	run      func() // starts it; nil once started
	done     chan error
	journal  []journalEntry // every write and delete since the model's copy
}

type journalEntry struct {
	k           nsKey
	v           []byte // nil: deleted
	began, done int64  // keyspace.calls when the write began and when it was recorded
}

// hot reports whether the store the bot runs on is the file store.
func (l *life) hot() bool { _, ok := l.cfg.Store.(*bolt.Provider); return ok }

// armHotSnapshot makes the bot's next write start a snapshot of the file
// store. Any other is a scan, not one instant: its snapshot is taken once
// the step is over, and checked the same way (the history is the same).
func (l *life) armHotSnapshot() {
	h := &hotSnap{snap: snap{path: filepath.Join(l.op.Dir, fmt.Sprintf("snap-%d.tar", len(l.op.snaps)+1)), step: l.step + 1},
		inFlight: l.hot(), done: make(chan error, 1)}
	h.model, h.gone, h.open = l.keys.copy()
	store, name := l.cfg.Store, l.op.serving().Name
	h.run = func() {
		go func() {
			_, err := backup.WriteFile(context.Background(), store, h.path, backup.Options{Source: name, Now: l.clk.Now})
			h.done <- err
		}()
	}
	l.keys.mu.Lock()
	l.keys.hot = h
	l.keys.mu.Unlock()
	l.op.hot = h
}

// settleHotSnapshot waits for the snapshot started in the last step and
// checks it is the store at one instant of it.
func (l *life) settleHotSnapshot() {
	h := l.op.hot
	if h == nil {
		return
	}
	l.op.hot = nil
	l.keys.mu.Lock()
	run := h.run
	l.keys.hot, h.run = nil, nil
	l.keys.mu.Unlock()
	if run != nil { // not in flight, or the step wrote nothing
		run()
	}
	if err := <-h.done; err != nil {
		l.fail("operator", "snapshot during step %d: %v", h.step, err)
		return
	}
	a, err := backup.Open(h.path, l.op.Dir)
	if err != nil {
		l.fail("operator", "snapshot during step %d: %v", h.step, err)
		return
	}
	held, err := holdings(context.Background(), a)
	_ = a.Close(context.Background())
	if err != nil {
		l.t.Fatal(err)
	}
	_, _, open := l.keys.copy() // a write with no answer during the step may show too
	maps.Copy(open, h.open)
	h.open = open
	model, gone, n, ok := instant(held, h.model, h.gone, h.open, h.journal)
	l.hist.note("  the snapshot is the store after %d of the %d writes made meanwhile (found %t)", n, len(h.journal), ok)
	if !ok {
		l.fail("keyspace", "the snapshot taken during step %d is the store at no instant of it: %s", h.step, first(diffKeys(held, model, gone, h.open), 5))
		return
	}
	h.model, h.gone = model, gone
	l.op.snaps = append(l.op.snaps, h.snap)
	l.hist.op("  snapshot during step %d: the store at one instant", h.step)
	l.hist.count("snapshots", 1)
}

// instant finds the moment of the journal held is: the model after some
// number of its writes. Two writes that ran at once (the stats hook beside
// the update's record) may have landed in either order: the later one
// alone is tried too. It returns that model and how many writes it holds;
// not found, the model at the end.
func instant(held, model map[nsKey][]byte, gone map[nsKey]bool, open map[nsKey][]alt, journal []journalEntry) (map[nsKey][]byte, map[nsKey]bool, int, bool) {
	for i := 0; ; i++ {
		if len(diffKeys(held, model, gone, open)) == 0 {
			return model, gone, i, true
		}
		if i == len(journal) {
			return model, gone, i, false
		}
		if i+1 < len(journal) && journal[i+1].began < journal[i].done {
			if m, g := apply(model, gone, journal[i+1]); len(diffKeys(held, m, g, open)) == 0 {
				return m, g, i + 1, true
			}
		}
		model, gone = apply(model, gone, journal[i])
	}
}

// apply is one journal entry on copies of a model.
func apply(model map[nsKey][]byte, gone map[nsKey]bool, e journalEntry) (map[nsKey][]byte, map[nsKey]bool) {
	m, g := make(map[nsKey][]byte, len(model)), make(map[nsKey]bool, len(gone))
	for k, v := range model {
		m[k] = v
	}
	for k := range gone {
		g[k] = true
	}
	if e.v == nil {
		if _, ok := m[e.k]; ok {
			g[e.k] = true
		}
		delete(m, e.k)
	} else {
		m[e.k] = e.v
		delete(g, e.k)
	}
	return m, g
}
