package backup_test

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/metricstest"
)

// The snapshot's age is a metric from the start: read from the newest
// archive the directory already holds (a restart forgets nothing), as old
// as can be when there is none (the alert fires until one is taken), and
// moved by every success.
func TestTheNewestSnapshotIsAMetricFromTheStart(t *testing.T) {
	p := storeNamed(t, "bolt")
	fill(t, p, generated(40))
	quiet := slog.New(slog.DiscardHandler)

	empty := &metricstest.Gauges{}
	backup.Job(p, backup.Dir{Path: t.TempDir(), Keep: 2}, "0 20 * * *", backup.Options{Source: "test"}, metrics.New(empty), quiet)
	if at, ok := empty.Get(metrics.BackupTime); !ok || at != 0 {
		t.Fatalf("with no snapshot, the time is %v (set %v); want 0", at, ok)
	}

	d := backup.Dir{Path: t.TempDir(), Keep: 2}
	taken := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	path, _, err := d.Take(context.Background(), p, backup.Options{Now: func() time.Time { return taken }})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &metricstest.Gauges{}
	job := backup.Job(p, d, "0 20 * * *", backup.Options{Source: "test"}, metrics.New(g), quiet)
	at, _ := g.Get(metrics.BackupTime)
	size, _ := g.Get(metrics.BackupBytes)
	items, _ := g.Get(metrics.BackupItems)
	if at != float64(taken.Unix()) || size != float64(fi.Size()) || items != 40 {
		t.Fatalf("at start: time %v, size %v, items %v; want the archive's time %d, size %d, 40 items", at, size, items, taken.Unix(), fi.Size())
	}
	before := time.Now()
	if err := job.Handler(context.Background(), app.CronRun{Slot: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got, _ := g.Get(metrics.BackupTime); got < float64(before.Unix()) {
		t.Fatalf("after a run the time is %v; want at least %d", got, before.Unix())
	}
	if job.Name != backup.JobName || job.Schedule != "0 20 * * *" {
		t.Fatalf("job %q on %q", job.Name, job.Schedule)
	}
}
