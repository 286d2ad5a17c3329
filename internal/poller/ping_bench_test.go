package poller_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
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
// is sent while the poller waits in getUpdates, once every store call of
// the last one (its inbox item's delete included) is over: a lone user's
// /ping.
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
			calls := &inFlight{KVProvider: st.open(b)}
			bot := apptest.NewOnStore(b, calls, srv, nil, []app.Factory{misc.Factory})
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
				sends, err := srv.WaitCalls(ctx, "sendMessage", n)
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, sends[n-1].At.Sub(sent))
				<-handled
				for { // the update's inbox item, if it had one, is gone
					calls.waitIdle()
					keys, err := core.List(ctx, "inbox:")
					if err != nil {
						b.Fatal(err)
					}
					if len(keys) == 0 {
						break
					}
				}
				calls.waitIdle()
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
		})
	}
}

// inFlight counts the store calls under way, in every namespace.
type inFlight struct {
	storage.KVProvider
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0
}

func (f *inFlight) For(ns string) storage.KVStore { return countedStore{f, f.KVProvider.For(ns)} }

func (f *inFlight) begin() func() {
	f.mu.Lock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n++
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.n--; f.n == 0 {
			close(f.idle)
		}
	}
}

// waitIdle returns once no store call is under way.
func (f *inFlight) waitIdle() {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	if idle != nil {
		<-idle
	}
}

type countedStore struct {
	f *inFlight
	storage.KVStore
}

func (s countedStore) Get(ctx context.Context, key string) ([]byte, error) {
	defer s.f.begin()()
	return s.KVStore.Get(ctx, key)
}

func (s countedStore) GetJSON(ctx context.Context, key string, dst any) error {
	defer s.f.begin()()
	return s.KVStore.GetJSON(ctx, key, dst)
}

func (s countedStore) Put(ctx context.Context, key string, val []byte) error {
	defer s.f.begin()()
	return s.KVStore.Put(ctx, key, val)
}

func (s countedStore) PutJSON(ctx context.Context, key string, v any) error {
	defer s.f.begin()()
	return s.KVStore.PutJSON(ctx, key, v)
}

func (s countedStore) Delete(ctx context.Context, key string) error {
	defer s.f.begin()()
	return s.KVStore.Delete(ctx, key)
}

func (s countedStore) List(ctx context.Context, prefix string) ([]string, error) {
	defer s.f.begin()()
	return s.KVStore.List(ctx, prefix)
}

func (s countedStore) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	defer s.f.begin()()
	return s.KVStore.CompareAndSwap(ctx, key, expected, val)
}
