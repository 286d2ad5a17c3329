package timer_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// BenchmarkWakeOf1000DueAmong10000 is the same minute as the container
// lives it: 10,000 timers pending, 1,000 due in one minute (one each
// 60 ms), fired by the waker (timer.Engine.Wake) on the wall clock, as
// many replicas as the name says, each with the minute's tick as well.
// Lateness is a timer's due second to its callback. Each run takes a
// minute of wall time. Run with scripts/with-testservers:
//
//	go test -run '^$' -bench WakeOf1000 -benchtime 1x ./internal/timer/
func BenchmarkWakeOf1000DueAmong10000(b *testing.B) {
	for _, bk := range []struct {
		name     string
		open     func(testing.TB) storage.KVProvider
		latency  time.Duration // added to each store call
		replicas int
		send     time.Duration // each callback's own time (a Bot API send)
	}{
		{"bolt", func(t testing.TB) storage.KVProvider { return backendtest.Bolt(t) }, 0, 1, 0},
		{"dynamodb-5ms", func(t testing.TB) storage.KVProvider { return backendtest.Dynamo(t) }, 5 * time.Millisecond, 1, 0},
		{"dynamodb-5ms-2replicas-send100ms", func(t testing.TB) storage.KVProvider { return backendtest.Dynamo(t) }, 5 * time.Millisecond, 2, 100 * time.Millisecond},
		// Telegram answering slowly, as the attacker's round had it.
		{"bolt-2replicas-send3s", func(t testing.TB) storage.KVProvider { return backendtest.Bolt(t) }, 0, 2, 3 * time.Second},
	} {
		b.Run(bk.name, func(b *testing.B) {
			for range b.N {
				benchWake(b, bk.open(b), bk.latency, bk.replicas, bk.send)
			}
		})
	}
}

// shiftedClock is the wall clock moved to where the test wants it.
type shiftedClock struct{ off atomic.Int64 }

func (c *shiftedClock) Now() time.Time { return time.Now().Add(time.Duration(c.off.Load())) }

func (c *shiftedClock) Set(t time.Time) { c.off.Store(int64(time.Until(t))) }

func benchWake(b *testing.B, p storage.KVProvider, latency time.Duration, replicas int, send time.Duration) {
	b.StopTimer()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := &shiftedClock{}
	clk.Set(t0.Add(-time.Hour))
	counting := storagetest.NewCounting(p, latency)
	var mu sync.Mutex
	var late []time.Duration
	fired := make(map[string]int)
	all := make(chan struct{})
	on := func(ctx context.Context, tm app.Timer) error {
		if send > 0 {
			select {
			case <-time.After(send):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		mu.Lock()
		defer mu.Unlock()
		asked, _ := time.Parse(time.RFC3339Nano, string(tm.Payload))
		if fired[tm.Key]++; fired[tm.Key] == 1 && asked.Before(t0.Add(time.Hour)) {
			late = append(late, clk.Now().Sub(asked))
			if len(late) == 1000 {
				close(all)
			}
		}
		return nil
	}
	engines := make([]*timer.Engine, replicas)
	for i := range engines {
		engines[i] = timer.New(counting.For(storage.CoreNamespace), clk.Now, timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) {
			return on, true
		}))
	}
	e := engines[0]
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
	clk.Set(t0.Add(-time.Second))
	if _, err := e.Tick(ctx); err != nil { // the cursor where the minute's tick leaves it
		b.Fatal(err)
	}
	counting.Reset()
	var wg sync.WaitGroup
	start := time.Now()
	b.StartTimer()
	for _, r := range engines {
		wg.Go(func() {
			r.Wake(ctx, func() bool {
				tctx, stop := context.WithTimeout(ctx, 50*time.Second)
				defer stop()
				st, _ := r.Tick(tctx)
				return !st.Busy
			})
		})
		// The minute's tick, the safety net, on each replica.
		wg.Go(func() {
			select {
			case <-ctx.Done():
			case <-time.After(time.Until(start.Add(61 * time.Second))):
				_, _ = r.Tick(ctx)
			}
		})
	}
	select {
	case <-all:
	case <-time.After(3 * time.Minute):
	}
	b.StopTimer()
	cancel()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	twice := 0
	for _, n := range fired {
		if n > 1 {
			twice++
		}
	}
	if twice > 0 {
		b.Fatalf("%d timers fired twice", twice)
	}
	b.ReportMetric(float64(len(late)), "fired")
	for len(late) < 1000 { // not fired within the 3 minutes: counted as that late
		late = append(late, 3*time.Minute)
	}
	slices.Sort(late)
	b.ReportMetric(late[len(late)*99/100-1].Seconds(), "p99-late-s")
	b.ReportMetric(late[len(late)-1].Seconds(), "max-late-s")
	b.ReportMetric(float64(counting.Trips())/float64(replicas), "trips/replica")
}
