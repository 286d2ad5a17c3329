package bolt_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// BenchmarkWritesDuringABackgroundSnapshot times the bot's writes and
// reads while the scheduled job's snapshot (in the background) copies a
// file 4 MiB short of the 64 MiB its map has grown to: a writer commits
// 1 MiB at a time, a reader reads, until the copy ends. With the map Open
// starts with (1 GiB) and with bbolt's own, whose remap waits for the
// copy's read transaction and holds every read behind it. It reports the
// slowest write and read of each, and the snapshot's mean time. Run it with:
//
//	go test -run '^$' -bench WritesDuringABackgroundSnapshot -benchtime 3x ./internal/storage/bolt/
func BenchmarkWritesDuringABackgroundSnapshot(b *testing.B) {
	modes := []struct {
		name string
		opts []bolt.Option
	}{{"initialmap", nil}, {"bboltsmap", []bolt.Option{bolt.WithBboltsMap()}}}
	worst := map[string][2]time.Duration{}
	copying := map[string]time.Duration{}
	for b.Loop() {
		for _, m := range modes {
			w, r, c := writesDuringASnapshot(b, m.opts)
			worst[m.name] = [2]time.Duration{max(worst[m.name][0], w), max(worst[m.name][1], r)}
			copying[m.name] += c
		}
	}
	for _, m := range modes {
		b.ReportMetric(float64(worst[m.name][0].Milliseconds()), m.name+"-write-max-ms")
		b.ReportMetric(float64(worst[m.name][1].Milliseconds()), m.name+"-read-max-ms")
		b.ReportMetric(float64(copying[m.name].Milliseconds())/float64(b.N), m.name+"-snapshot-ms")
	}
}

// writesDuringASnapshot fills a new store to 60 MiB and returns the
// slowest write and read while a background snapshot of it runs, and how
// long the snapshot took.
func writesDuringASnapshot(b *testing.B, opts []bolt.Option) (write, read, took time.Duration) {
	dir, err := os.MkdirTemp(b.TempDir(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p, err := bolt.Open(filepath.Join(dir, "bot.db"), opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(context.Background())
	n := 0
	for size := int64(0); size < 60<<20; n += 16 {
		if err := load(b, p, n, 16); err != nil {
			b.Fatal(err)
		}
		if err := p.HotCopy(func(c bolt.Copy) error { size = c.Size(); return nil }); err != nil {
			b.Fatal(err)
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := n; ; i += 4 {
			select {
			case <-done:
				return
			default:
			}
			start := time.Now()
			if err := load(b, p, i, 4); err != nil {
				b.Error(err)
				return
			}
			write = max(write, time.Since(start))
		}
	})
	wg.Go(func() {
		kv := p.For("bulk")
		for {
			select {
			case <-done:
				return
			default:
			}
			start := time.Now()
			if _, err := kv.Get(context.Background(), "k:00000000"); err != nil {
				b.Error(err)
				return
			}
			read = max(read, time.Since(start))
		}
	})
	start := time.Now()
	_, err = backup.WriteFile(context.Background(), p, filepath.Join(dir, "snap.tar"), backup.Options{Background: true})
	took = time.Since(start)
	close(done)
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
	return write, read, took
}
