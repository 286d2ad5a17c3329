package timer_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// BenchmarkTickOf1000DueAmong10000 is the minute the issue names: 10,000
// timers pending, 1,000 of them due in the same minute (one each 60 ms),
// ticked at the minute's start and end as the cron fires. Lateness is a timer's
// due second to its callback: the clock's part (the minute's tick comes
// up to 59 s after the second it is due) plus the tick's own wall time to
// reach it. Run with scripts/with-testservers (dynamodb is dynalite):
//
//	go test -run '^$' -bench TickOf1000 -benchtime 1x ./internal/timer/
func BenchmarkTickOf1000DueAmong10000(b *testing.B) {
	for _, bk := range []struct {
		name    string
		open    func(testing.TB) storage.KVProvider
		latency time.Duration // added to each store call: a store as far as production's
	}{
		{"bolt", func(t testing.TB) storage.KVProvider { return backendtest.Bolt(t) }, 0},
		{"dynamodb", func(t testing.TB) storage.KVProvider { return backendtest.Dynamo(t) }, 0},
		{"dynamodb-5ms", func(t testing.TB) storage.KVProvider { return backendtest.Dynamo(t) }, 5 * time.Millisecond},
	} {
		b.Run(bk.name, func(b *testing.B) {
			for range b.N {
				benchTick(b, bk.open(b), bk.latency)
			}
		})
	}
}

func benchTick(b *testing.B, p storage.KVProvider, latency time.Duration) {
	b.StopTimer()
	ctx := context.Background()
	clk := apptest.NewClock(t0.Add(-time.Hour))
	counting := storagetest.NewCounting(p, latency)
	var mu sync.Mutex
	var start time.Time
	var late []time.Duration
	on := func(_ context.Context, tm app.Timer) error {
		mu.Lock()
		defer mu.Unlock()
		asked, _ := time.Parse(time.RFC3339Nano, string(tm.Payload))
		late = append(late, clk.Now().Sub(asked)+time.Since(start))
		return nil
	}
	e := timer.New(counting.For(storage.CoreNamespace), clk.Now, timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) {
		return on, true
	}))
	fill := func(n int, key string, at func(i int) time.Time) {
		var wg sync.WaitGroup
		work := make(chan int)
		for range 16 {
			wg.Go(func() {
				for i := range work {
					if _, err := e.For("m").Set(ctx, app.Timer{Key: fmt.Sprintf("%s%d", key, i), ChatID: int64(i), At: at(i), Payload: []byte(at(i).Format(time.RFC3339Nano))}); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for i := range n {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	fill(9000, "later", func(i int) time.Time { return t0.Add(time.Hour + time.Duration(i)*9*time.Second) })
	fill(1000, "due", func(i int) time.Time { return t0.Add(time.Duration(i+1) * 60 * time.Millisecond) })
	clk.Set(t0)
	if _, err := e.Tick(ctx); err != nil { // the minute's own tick: nothing due yet
		b.Fatal(err)
	}
	clk.Set(t0.Add(time.Minute))
	counting.Reset()
	start = time.Now()
	b.StartTimer()
	st, err := e.Tick(ctx)
	b.StopTimer()
	wall := time.Since(start)
	if err != nil || st.Fired != 1000 {
		b.Fatalf("fired %d, want 1000: %v", st.Fired, err)
	}
	slices.Sort(late)
	b.ReportMetric(late[len(late)*99/100-1].Seconds(), "p99-late-s")
	b.ReportMetric(wall.Seconds(), "tick-s")
	b.ReportMetric(float64(counting.Trips()), "trips/tick")
}
