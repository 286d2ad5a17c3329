package poller_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// BenchmarkPingOnAStore is a /ping's time from reaching the fake Bot API to
// its reply, through the real poller and core on a production store: the
// file (bbolt, fsync on) and MongoDB's wire protocol (FerretDB). Each ping
// is sent while the poller waits in getUpdates, after the last one's
// writes (the inbox's included) are over: a lone user's /ping.
// Run: scripts/with-testservers go test -run '^$' -bench PingOnAStore -benchtime 40x ./internal/poller/
func BenchmarkPingOnAStore(b *testing.B) {
	stores := []struct {
		name string
		open func(testing.TB) storage.KVProvider
	}{
		{"file", func(t testing.TB) storage.KVProvider { return backendtest.Bolt(t) }},
		{"ferretdb", func(t testing.TB) storage.KVProvider { return backendtest.Mongo(t) }},
	}
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			srv := telegramtest.New(b)
			bot := apptest.NewOnStore(b, st.open(b), srv, nil, []app.Factory{misc.Factory})
			core := bot.Store.For(storage.CoreNamespace)
			handled := make(chan struct{}, 1)
			handle := func(ctx context.Context, u *models.Update) error {
				defer func() { handled <- struct{}{} }()
				return bot.App.HandleUpdate(ctx, u)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			p := poller.New(bot.Client, core, handle, poller.WithLongPoll(30*time.Second),
				poller.WithLogger(slog.New(slog.DiscardHandler)))
			go func() { _ = p.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()

			var lat []time.Duration
			for n := 1; b.Loop(); n++ {
				if err := srv.WaitPolling(ctx); err != nil {
					b.Fatal(err)
				}
				sent := time.Now()
				srv.Push(telegramtest.Text(int64(n), int64(n), "/ping"))
				calls, err := srv.WaitCalls(ctx, "sendMessage", n)
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, calls[n-1].At.Sub(sent))
				<-handled
				for { // the update's inbox item, if it had one, is gone
					keys, err := core.List(ctx, "inbox:")
					if err != nil {
						b.Fatal(err)
					}
					if len(keys) == 0 {
						break
					}
					time.Sleep(time.Millisecond)
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
		})
	}
}
