package backup_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// BenchmarkSnapshotFile100k takes a snapshot of an embedded store of
// 100,000 items next to bbolt's own hot copy of it (WriteTo into a file),
// interleaved; both end synced to disk. It times the scheduled job's
// snapshot (in the background) once too. Run it with:
//
//	go test -run '^$' -bench SnapshotFile100k -benchtime 10x ./internal/backup/
func BenchmarkSnapshotFile100k(b *testing.B) {
	p := backendtest.Bolt(b)
	fill(b, p, generated(100_000))
	dir := b.TempDir()
	raw := func() error {
		f, err := os.Create(filepath.Join(dir, "raw.db"))
		if err != nil {
			return err
		}
		defer f.Close()
		if err := p.HotCopy(func(c bolt.Copy) error { _, err := c.WriteTo(f); return err }); err != nil {
			return err
		}
		return f.Sync()
	}
	snap := func() error {
		_, err := backup.WriteFile(context.Background(), p, filepath.Join(dir, "snap.tar"), backup.Options{})
		return err
	}
	heap := peakHeap(func() { _ = snap() })
	start := time.Now() // the scheduled job's, giving way to the bot, once
	if _, err := backup.WriteFile(context.Background(), p, filepath.Join(dir, "bg.tar"), backup.Options{Background: true}); err != nil {
		b.Fatal(err)
	}
	background := time.Since(start)
	testenv.SideBySide(b, testenv.Side{Name: "snapshot", Run: snap}, testenv.Side{Name: "raw", Run: raw})
	b.ReportMetric(float64(background.Milliseconds()), "background-ms")
	b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MiB")
	if fi, err := os.Stat(filepath.Join(dir, "snap.tar")); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "archive-MB")
	}
}
