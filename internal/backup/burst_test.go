package backup_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// burst writes into p until stop closes; started closes after its first
// writes, so snapshots begin while it runs. It returns how many it made.
func burst(t *testing.T, write func(i int) error) (started, stop chan struct{}, wait func() int64) {
	started, stop = make(chan struct{}), make(chan struct{})
	var n atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := write(i); err != nil {
				t.Error(err)
				return
			}
			if n.Add(1) == 20 {
				close(started)
			}
		}
	})
	return started, stop, func() int64 { wg.Wait(); return n.Load() }
}

// The file's snapshot is the store at one instant, while writes keep
// coming: a writer puts a/<i> then b/<i>, one transaction each, so at any
// instant b holds a's keys, or all but the newest. A walk reading a before
// b would find b ahead of a.
func TestASnapshotOfTheFileDuringABurstOfWritesIsTheStoreAtOneInstant(t *testing.T) {
	p := storeNamed(t, "bolt")
	fill(t, p, generated(20_000)) // a copy long enough for writes to land during it
	ctx := context.Background()
	key := func(i int) string { return fmt.Sprintf("%08d", i) }
	started, stop, wait := burst(t, func(i int) error {
		if err := p.For("a").Put(ctx, key(i), []byte(key(i))); err != nil {
			return err
		}
		return p.For("b").Put(ctx, key(i), []byte(key(i)))
	})
	<-started
	var archives []string
	for range 5 {
		path, _ := snapshot(t, p)
		archives = append(archives, path)
	}
	close(stop)
	t.Logf("%d writes during 5 snapshots", wait())
	for _, path := range archives {
		got := contents(t, open(t, path))
		var a, b int
		for k := range got {
			a += boolInt(strings.HasPrefix(k, "a/"))
			b += boolInt(strings.HasPrefix(k, "b/"))
		}
		if a != b && a != b+1 {
			t.Fatalf("a snapshot holds %d items of a and %d of b: not one instant", a, b)
		}
		for i := range b {
			if _, ok := got["a/"+key(i)]; !ok {
				t.Fatalf("b/%s without a/%s: not one instant", key(i), key(i))
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A server's snapshot is a scan, not a transaction: each item is whole
// and as it was at some moment of the scan, never older than when the
// snapshot started, while a writer rewrites every item over and over.
func TestASnapshotOfAServerDuringABurstOfWritesHoldsEachItemWholeAndCurrent(t *testing.T) {
	for _, s := range []string{"mongodb", "dynamodb"} {
		t.Run(s, func(t *testing.T) {
			p := storeNamed(t, s)
			const keys = 200
			ctx := context.Background()
			value := func(k, v int) []byte { return fmt.Appendf(nil, "%d:%d:%s", k, v, strings.Repeat("x", 500+k)) }
			items := make([]storage.Item, keys)
			for k := range items {
				items[k] = storage.Item{Namespace: "m", Key: strconv.Itoa(k), Value: value(k, 0), UpdatedAt: 1}
			}
			fill(t, p, items)
			var version [keys]atomic.Int64 // the version each key has reached
			started, stop, wait := burst(t, func(i int) error {
				k, v := i%keys, i/keys+1
				if err := p.For("m").Put(ctx, strconv.Itoa(k), value(k, v)); err != nil {
					return err
				}
				version[k].Store(int64(v))
				return nil
			})
			<-started
			var floor [keys]int64
			for k := range floor {
				floor[k] = version[k].Load()
			}
			path, _ := snapshot(t, p)
			close(stop)
			t.Logf("%d writes", wait())
			got := contents(t, open(t, path))
			if len(got) != keys {
				t.Fatalf("%d items in the snapshot, want %d", len(got), keys)
			}
			for k := range keys {
				it := got["m/"+strconv.Itoa(k)]
				var gk, gv int
				if _, err := fmt.Sscanf(string(it.Value), "%d:%d:", &gk, &gv); err != nil || gk != k || string(it.Value) != string(value(k, gv)) {
					t.Fatalf("item %d is not a value ever written: %.40q", k, it.Value)
				}
				if int64(gv) < floor[k] {
					t.Fatalf("item %d is at version %d, older than the %d it had when the snapshot started", k, gv, floor[k])
				}
			}
		})
	}
}
