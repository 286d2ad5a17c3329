package stats

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// A user's tally is one document ("u:<id>"): their latest @username and how
// often they used each command. Counting a command is one write of it, a
// CompareAndSwap against the bytes this process last wrote for that user,
// falling back to a read when another process (or a racing update) changed
// them since: exact, and one round trip in the common case. Only one user's
// own updates contend for a document.
const (
	tallyKeys = "u:"
	// remembered bounds the bytes kept per process: past it, a user's next
	// count reads first (two round trips instead of one).
	remembered = 4096
	// busyRetries bounds the new tries after storage.ErrBusy.
	busyRetries = 3
	// keepCounted bounds the updates a tally remembers: an update is
	// counted again only by the core's next run of its hook, before the
	// user's next few commands (other chats' ones may come between: about
	// 700 bytes a tally).
	keepCounted = 32
)

type tally struct {
	Name string           `json:"name,omitempty"`
	Cmds map[string]int64 `json:"cmds"`
	// The update_ids of the user's last commands counted (app.ApplyTo): a
	// hook run again after its write landed unheard counts its update once.
	app.Once[struct{}]
}

type tallies struct {
	store storage.KVStore
	mu    sync.Mutex
	last  map[string]written // key -> what this process last wrote
}

// written is a tally as this process wrote it: its bytes, and decoded, so
// that the next count of the same user decodes nothing.
type written struct {
	bytes []byte
	tally tally
}

func newTallies(s storage.KVStore) *tallies {
	return &tallies{store: s, last: map[string]written{}}
}

// add counts one use of command by user in update (once however often it
// is told), and keeps username when given.
func (t *tallies) add(ctx context.Context, user, username, command string, update int64) error {
	key := tallyKeys + user
	last, known := t.recall(key)
	var wrote written
	f := func(cur []byte) (out []byte, err error) {
		var v tally
		switch {
		case known && bytes.Equal(cur, last.bytes):
			v.Name, v.Cmds, v.Applied = last.tally.Name, maps.Clone(last.tally.Cmds), slices.Clone(last.tally.Applied)
		case cur != nil:
			if err := json.Unmarshal(cur, &v); err != nil {
				return nil, fmt.Errorf("stats: tally %s: %w", key, err)
			}
		}
		_, counted, _ := app.ApplyTo(&v, update, func(v *tally) (struct{}, error) {
			if v.Cmds == nil {
				v.Cmds = map[string]int64{}
			}
			v.Cmds[command]++
			if username != "" {
				v.Name = username
			}
			return struct{}{}, nil
		}, app.Remember(keepCounted))
		if !counted {
			wrote = written{cur, v} // counted already: nothing to write
			return nil, nil
		}
		out, err = json.Marshal(v) // map keys sorted: the same tally, the same bytes
		wrote = written{out, v}    // the last call is the one written
		return out, err
	}
	var err error
	if known {
		err = storage.UpdateFrom(ctx, t.store, key, last.bytes, f)
	} else {
		err = storage.Update(ctx, t.store, key, f)
	}
	// ErrBusy: the user's tally kept changing under Update's tries (one
	// user's updates racing in several chats); the contract says to try
	// again, and a count is worth a few more tries within the hook's budget.
	for range busyRetries {
		if !errors.Is(err, storage.ErrBusy) || ctx.Err() != nil {
			break
		}
		err = storage.Update(ctx, t.store, key, f)
	}
	t.keep(key, wrote, err == nil)
	return err
}

func (t *tallies) recall(key string) (written, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.last[key]
	return w, ok
}

func (t *tallies) keep(key string, wrote written, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !ok {
		delete(t.last, key) // unknown now: read next time
		return
	}
	if _, had := t.last[key]; !had && len(t.last) >= remembered {
		for k := range t.last { // any one: a forgotten user costs one read
			delete(t.last, k)
			break
		}
	}
	t.last[key] = wrote
}

// usage is every user's counts and names, as /stats shows them.
type usage struct {
	counts map[string]map[string]int64 // user -> command -> uses
	names  map[string]string           // user -> @username
}

// load reads every tally, and the counters of the layout before tallies
// (kept readable so that counts from before an upgrade still show).
func (t *tallies) load(ctx context.Context) (usage, error) {
	u := usage{counts: map[string]map[string]int64{}, names: map[string]string{}}
	keys, err := t.store.List(ctx, tallyKeys)
	if err != nil {
		return u, err
	}
	for _, k := range keys {
		var v tally
		if err := t.store.GetJSON(ctx, k, &v); err != nil {
			return u, fmt.Errorf("stats: %w", err)
		}
		user := strings.TrimPrefix(k, tallyKeys)
		for c, n := range v.Cmds {
			u.add(user, c, n)
		}
		if v.Name != "" {
			u.names[user] = v.Name
		}
	}
	return u, loadLegacy(ctx, t.store, u)
}

func (u usage) add(user, command string, n int64) {
	if u.counts[user] == nil {
		u.counts[user] = map[string]int64{}
	}
	u.counts[user][command] += n
}
