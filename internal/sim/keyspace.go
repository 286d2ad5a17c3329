package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// keyspace is every item the bot's own writes and deletes leave, as the
// recorder saw them: what the store it runs on must hold after any
// operator event, item by item. No deleted key may come back.
type keyspace struct {
	mu      sync.Mutex
	items   map[nsKey][]byte
	deleted map[nsKey]bool  // deleted and not written since
	open    map[nsKey][]alt // written with no answer: the outcomes the store may show (latewrite.go)
	hot     *hotSnap        // a snapshot journaling the writes (hotsnap.go)
	calls   atomic.Int64    // numbers the starts and ends of the bot's writes
}

type nsKey struct{ ns, key string }

func (k nsKey) String() string { return fmt.Sprintf("%s/%q", k.ns, k.key) }

// newKeyspace starts from what p already holds.
func newKeyspace(t testing.TB, p storage.KVProvider) *keyspace {
	ks := &keyspace{items: map[nsKey][]byte{}, deleted: map[nsKey]bool{}, open: map[nsKey][]alt{}}
	held, err := holdings(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	ks.items = held
	return ks
}

// begin numbers the start of a write.
func (ks *keyspace) begin() int64 { return ks.calls.Add(1) }

func (ks *keyspace) put(k nsKey, v []byte, began int64) {
	ks.mu.Lock()
	ks.items[k] = bytes.Clone(v)
	delete(ks.deleted, k)
	delete(ks.open, k)
	ks.journal(journalEntry{k, ks.items[k], began, ks.calls.Add(1)})
}

func (ks *keyspace) remove(k nsKey, began int64) {
	ks.mu.Lock()
	if _, ok := ks.items[k]; ok {
		ks.deleted[k] = true
	}
	delete(ks.items, k)
	delete(ks.open, k)
	ks.journal(journalEntry{k, nil, began, ks.calls.Add(1)})
}

// journal hands a write to a hot snapshot, the first one starting it, and
// unlocks.
func (ks *keyspace) journal(e journalEntry) {
	var run func()
	if h := ks.hot; h != nil {
		h.journal = append(h.journal, e)
		if h.inFlight && h.run != nil {
			run, h.run = h.run, nil
		}
	}
	ks.mu.Unlock()
	if run != nil {
		run()
	}
}

// copy is a copy of the model, to check a snapshot against.
func (ks *keyspace) copy() (map[nsKey][]byte, map[nsKey]bool, map[nsKey][]alt) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	items, gone := make(map[nsKey][]byte, len(ks.items)), make(map[nsKey]bool, len(ks.deleted))
	for k, v := range ks.items {
		items[k] = v
	}
	for k := range ks.deleted {
		gone[k] = true
	}
	return items, gone, maps.Clone(ks.open)
}

// holdings is every item p holds but the migrator's checkpoints.
func holdings(ctx context.Context, p storage.KVProvider) (map[nsKey][]byte, error) {
	out := map[nsKey][]byte{}
	w, ok := p.(storage.Walker)
	if !ok {
		return out, fmt.Errorf("sim: the store %T cannot be walked", p)
	}
	err := w.Walk(ctx, func(r storage.Raw) error {
		if !migrate.IsCheckpoint(r.Namespace, r.Key) {
			out[nsKey{r.Namespace, r.Key}] = bytes.Clone(r.Value)
		}
		return nil
	})
	return out, err
}

// diffKeys lists where held and want disagree, first ones first; gone
// names the keys the bot deleted, open those whose last write may land
// late (either outcome is the bot's).
func diffKeys(held, want map[nsKey][]byte, gone map[nsKey]bool, open map[nsKey][]alt) []string {
	var out []string
	for k, v := range held {
		w, ok := want[k]
		alts, undecided := open[k]
		switch {
		case undecided && !shows(alts, v, true):
			out = append(out, k.String()+": neither its last write nor the one that had no answer")
		case undecided:
		case !ok && gone[k]:
			out = append(out, k.String()+": deleted by the bot, back")
		case !ok:
			out = append(out, k.String()+": never written by the bot")
		case !bytes.Equal(v, w):
			out = append(out, k.String()+": not its last write")
		}
	}
	for k := range want {
		if _, ok := held[k]; !ok && !shows(open[k], nil, false) {
			out = append(out, k.String()+": lost")
		}
	}
	sort.Strings(out)
	return out
}

// checkKeyspace: the store the bot runs on holds exactly what its own
// writes and deletes left, after the operator's event.
func (l *life) checkKeyspace(event string) {
	l.t.Helper()
	held, err := holdings(context.Background(), l.cfg.Store)
	if err != nil {
		l.t.Fatal(err)
	}
	l.keys.mu.Lock()
	bad := diffKeys(held, l.keys.items, l.keys.deleted, l.keys.open)
	l.keys.mu.Unlock()
	if len(bad) > 0 {
		l.fail("keyspace", "after the %s, %d keys differ from the bot's own writes: %s", event, len(bad), first(bad, 5))
	}
}

func first(s []string, n int) string {
	if len(s) > n {
		return fmt.Sprintf("%q and %d more", s[:n], len(s)-n)
	}
	return fmt.Sprintf("%q", s)
}

// recorder is the life's store as the bot sees it: every write and delete
// the bot makes goes through it into the keyspace.
type recorder struct {
	storage.KVProvider
	ks *keyspace
}

func (r *recorder) For(ns string) storage.KVStore {
	return &tracked{KVStore: r.KVProvider.For(ns), ns: ns, ks: r.ks}
}

type tracked struct {
	storage.KVStore
	ns string
	ks *keyspace
}

func (r *tracked) Put(ctx context.Context, key string, val []byte) error {
	began := r.ks.begin()
	err := r.KVStore.Put(ctx, key, val)
	if err == nil {
		r.ks.put(nsKey{r.ns, key}, val, began)
	}
	r.ks.unsure(ctx, r.KVStore, nsKey{r.ns, key}, began, alt{v: val}, err)
	return err
}

// PutJSON encodes as the contract's PutJSON does (storage.Wrap), to know
// the bytes.
func (r *tracked) PutJSON(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return r.KVStore.PutJSON(ctx, key, v)
	}
	return r.Put(ctx, key, data)
}

func (r *tracked) Delete(ctx context.Context, key string) error {
	began := r.ks.begin()
	err := r.KVStore.Delete(ctx, key)
	if err == nil {
		r.ks.remove(nsKey{r.ns, key}, began)
	}
	r.ks.unsure(ctx, r.KVStore, nsKey{r.ns, key}, began, alt{absent: true}, err)
	return err
}

func (r *tracked) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	began := r.ks.begin()
	err := r.KVStore.CompareAndSwap(ctx, key, expected, val)
	if err == nil {
		r.ks.put(nsKey{r.ns, key}, val, began)
	}
	r.ks.unsure(ctx, r.KVStore, nsKey{r.ns, key}, began, alt{v: val}, err)
	return err
}

func (r *tracked) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	began := r.ks.begin()
	err := r.KVStore.CompareAndDelete(ctx, key, expected)
	if err == nil {
		r.ks.remove(nsKey{r.ns, key}, began)
	}
	r.ks.unsure(ctx, r.KVStore, nsKey{r.ns, key}, began, alt{absent: true}, err)
	return err
}
