package backup_test

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// pingItems sizes BenchmarkPingWhileSnapshotting's store.
var pingItems = flag.Int("ping-items", 100_000, "BenchmarkPingWhileSnapshotting: the items of its file store")

// BenchmarkPingWhileSnapshotting measures /ping through the whole core on
// a file store of 100,000 items (-ping-items) (every write a commit with its fsync), in
// rounds that alternate: idle; while the scheduled job's snapshot (in the
// background) copies the file again and again into a directory on the
// same disk; and while botctl's (full speed) does. It reports each one's
// median and 99th percentile and their ratios to idle. Run it with:
//
//	go test -run '^$' -bench PingWhileSnapshotting -benchtime 20x ./internal/backup/
//	go test -run '^$' -bench PingWhileSnapshotting -benchtime 10x ./internal/backup/ -ping-items 1000000
func BenchmarkPingWhileSnapshotting(b *testing.B) {
	p := backendtest.Bolt(b)
	fill(b, p, generated(*pingItems))
	srv := telegramtest.New(b)
	client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL), telegram.WithRates(rate.Inf, rate.Inf))
	if err != nil {
		b.Fatal(err)
	}
	a, err := core.New(p, client, core.WithModules(builtin.Catalogue()), core.WithBotUsername("miti99bot"),
		core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		b.Fatal(err)
	}
	var id int64
	ping := func() time.Duration {
		id++
		u := telegramtest.Text(7, 7, "/ping")
		u.ID = id
		start := time.Now()
		if err := a.HandleUpdate(context.Background(), u); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	dir := b.TempDir()
	const perRound = 25
	// while pings as the snapshot loop in the given mode runs.
	while := func(o backup.Options) (lat []time.Duration, snapshots int) {
		stop, started := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i == 0 {
					close(started) // the first copy begins: so does the pinging
				}
				if _, err := backup.WriteFile(context.Background(), p, filepath.Join(dir, "snap.tar"), o); err != nil {
					b.Error(err)
					return
				}
				snapshots++
			}
		})
		<-started
		for range perRound {
			lat = append(lat, ping())
		}
		close(stop)
		wg.Wait()
		syscall.Sync() // the copies' writeback ends here, not in the next round
		return lat, snapshots
	}
	var idle, bg, fg []time.Duration
	var nbg, nfg int
	for b.Loop() {
		for range perRound {
			idle = append(idle, ping())
		}
		l, n := while(backup.Options{Background: true}) // the scheduled job's
		bg, nbg = append(bg, l...), nbg+n
		l, n = while(backup.Options{}) // botctl's, at full speed
		fg, nfg = append(fg, l...), nfg+n
	}
	q := func(d []time.Duration, f float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(f*float64(len(s)-1))].Microseconds())
	}
	for _, r := range []struct {
		name string
		lat  []time.Duration
	}{{"idle", idle}, {"background", bg}, {"fullspeed", fg}} {
		b.ReportMetric(q(r.lat, 0.5), r.name+"-p50-µs")
		b.ReportMetric(q(r.lat, 0.99), r.name+"-p99-µs")
		if r.name != "idle" {
			b.ReportMetric(q(r.lat, 0.5)/q(idle, 0.5), r.name+"-p50-ratio")
			b.ReportMetric(q(r.lat, 0.99)/q(idle, 0.99), r.name+"-p99-ratio")
		}
	}
	b.ReportMetric(float64(nbg)/float64(b.N), "background-snapshots/round")
	b.ReportMetric(float64(nfg)/float64(b.N), "fullspeed-snapshots/round")
}
