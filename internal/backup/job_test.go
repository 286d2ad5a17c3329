package backup_test

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/metrics"
)

// gauges records the gauges set through it.
type gauges struct {
	mu  sync.Mutex
	set map[string]float64
}

func (g *gauges) Add(metrics.Series, float64)     {}
func (g *gauges) Observe(metrics.Series, float64) {}
func (g *gauges) Set(s metrics.Series, v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.set[s.Name] = v
}

func (g *gauges) get(name string) float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.set[name]
}

// The snapshot's age is a metric from the start: read from the newest
// archive the directory already holds (a restart forgets nothing), as old
// as can be when there is none (the alert fires until one is taken), and
// moved by every success.
func TestTheNewestSnapshotIsAMetricFromTheStart(t *testing.T) {
	p := storeNamed(t, "bolt")
	fill(t, p, generated(40))
	quiet := slog.New(slog.DiscardHandler)

	empty := &gauges{set: map[string]float64{}}
	backup.Job(p, backup.Dir{Path: t.TempDir(), Keep: 2}, "0 20 * * *", "test", metrics.New(empty), quiet)
	if at, ok := empty.set[metrics.BackupTime]; !ok || at != 0 {
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
	g := &gauges{set: map[string]float64{}}
	job := backup.Job(p, d, "0 20 * * *", "test", metrics.New(g), quiet)
	if g.get(metrics.BackupTime) != float64(taken.Unix()) || g.get(metrics.BackupBytes) != float64(fi.Size()) || g.get(metrics.BackupItems) != 40 {
		t.Fatalf("at start: %v; want the archive's time %d, size %d, 40 items", g.set, taken.Unix(), fi.Size())
	}
	before := time.Now()
	if err := job.Handler(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := g.get(metrics.BackupTime); got < float64(before.Unix()) {
		t.Fatalf("after a run the time is %v; want at least %d", got, before.Unix())
	}
	if job.Name != backup.JobName || job.Schedule != "0 20 * * *" {
		t.Fatalf("job %q on %q", job.Name, job.Schedule)
	}
}
