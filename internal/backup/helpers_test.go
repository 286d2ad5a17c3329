package backup_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// stores are the backends a test can snapshot and restore into: each
// opens a fresh, empty one.
var stores = []struct {
	name string
	open func(t testing.TB) backup.Target
}{
	{"memory", func(testing.TB) backup.Target { return memory.New() }},
	{"bolt", func(t testing.TB) backup.Target { return backendtest.Bolt(t) }},
	{"mongodb", func(t testing.TB) backup.Target { return backendtest.Mongo(t) }},
	{"dynamodb", func(t testing.TB) backup.Target { return backendtest.Dynamo(t) }},
}

// edgeItems are items at the contract's edges, and a checkpoint of the
// migrator's: what a store may hold.
func edgeItems() []storage.Item {
	long := strings.Repeat("k", storage.MaxKeyBytes)
	return []storage.Item{
		{Namespace: "wordle", Key: "chat:-100", Value: []byte(`{"answer":"crane","guesses":["slate"]}`), UpdatedAt: 1_764_417_600_123_456_789},
		{Namespace: "wordle", Key: "empty", Value: []byte{}, UpdatedAt: 1},
		{Namespace: "coin", Key: "u:3", Value: []byte{0, 0xff, '\n', '"', '<', 0x80}, UpdatedAt: 2},
		{Namespace: "coin", Key: long, Value: make([]byte, storage.MaxValueBytes), UpdatedAt: 3},
		{Namespace: "lolschedule", Key: "sub:ünïcode ✓", Value: []byte("subscribed"), UpdatedAt: 4},
		{Namespace: "core", Key: "migrate:since:dynamodb_table_x", Value: []byte("1764417600000000000"), UpdatedAt: 5},
	}
}

// fill loads items into p as they are, timestamps included.
func fill(t testing.TB, p backup.Target, items []storage.Item) {
	t.Helper()
	for i := 0; i < len(items); i += 500 {
		if _, err := p.Load(context.Background(), items[i:min(i+500, len(items))], storage.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// generated are n items over a few namespaces, values of varied sizes.
func generated(n int) []storage.Item {
	out := make([]storage.Item, n)
	for i := range out {
		ns := []string{"wordle", "loldle", "coin", "gold", "stats"}[i%5]
		out[i] = storage.Item{Namespace: ns, Key: fmt.Sprintf("chat:%07d", i),
			Value: fmt.Appendf(nil, `{"n":%d,"pad":%q}`, i, strings.Repeat("x", i%300)), UpdatedAt: 1_700_000_000_000_000_000 + int64(i)}
	}
	return out
}

// contents is every item of p by namespace and key, bytes and time.
func contents(t testing.TB, p storage.Walker) map[string]storage.Item {
	t.Helper()
	out := map[string]storage.Item{}
	if err := p.Walk(context.Background(), func(r storage.Raw) error {
		if r.Problem != "" {
			return fmt.Errorf("%s/%q: %s", r.Namespace, r.Key, r.Problem)
		}
		out[r.Namespace+"/"+r.Key] = r.Item
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameItems fails unless a and b hold the same items, byte for byte, with
// the same times.
func sameItems(t testing.TB, what string, got, want map[string]storage.Item) {
	t.Helper()
	eq := func(a, b storage.Item) bool {
		return a.Namespace == b.Namespace && a.Key == b.Key && string(a.Value) == string(b.Value) && a.UpdatedAt == b.UpdatedAt
	}
	if maps.EqualFunc(got, want, eq) {
		return
	}
	n := 0
	for k, w := range want {
		if g, ok := got[k]; !ok || !eq(g, w) {
			if n++; n <= 5 {
				t.Errorf("%s: %s = %.80q (at %d, found %v), want %.80q (at %d)", what, k, g.Value, g.UpdatedAt, ok, w.Value, w.UpdatedAt)
			}
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			if n++; n <= 5 {
				t.Errorf("%s: %s should not be there", what, k)
			}
		}
	}
	t.Fatalf("%s: %d items differ (%d held, %d wanted)", what, n, len(got), len(want))
}

// snapshot writes an archive of p into the test's directory.
func snapshot(t testing.TB, p storage.KVProvider) (string, *backup.Summary) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "snap.tar")
	s, err := backup.WriteFile(context.Background(), p, path, backup.Options{Source: "the test's store"})
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}

// open opens an archive, closed at the test's end.
func open(t testing.TB, path string) *backup.Archive {
	t.Helper()
	a, err := backup.Open(path, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a
}

// peakHeap samples the heap while f runs and returns the highest value.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak.Store(max(peak.Load(), ms.HeapAlloc))
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	return peak.Load()
}
