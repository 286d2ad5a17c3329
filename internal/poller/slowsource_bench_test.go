package poller_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// sourceModule's /chart asks a price source at url and replies once it
// answers.
func sourceModule(url string) app.Factory {
	return app.Factory{Name: "source", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "source", Commands: []app.Command{{
			Name: "chart", Description: "Ask the slow source",
			Handler: func(ctx context.Context, r *app.Request) error {
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				if err != nil {
					return err
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					return err
				}
				defer res.Body.Close()
				price, err := io.ReadAll(res.Body)
				if err != nil {
					return err
				}
				_, err = r.Reply(ctx, "price "+string(price))
				return err
			},
		}}}, nil
	}}
}

// errStop cuts the handlers still waiting on the source when the
// benchmark ends.
var errStop = errors.New("benchmark over")

// BenchmarkPingWhileAHundredChatsWaitOnASlowSource is another chat's /ping,
// from the fake Bot API to its reply, through the real poller and core,
// while 100 chats each keep waiting 8 s on a price source (a fake that
// answers after 8 s, each chat sending /chart again and again). Each
// iteration is one /ping from a chat of its own (at most 20: the chats'
// /chart last that long however they are run); it reports p50 and p95.
// Run: go test -run '^$' -bench PingWhileAHundredChatsWaitOnASlowSource -benchtime 20x ./internal/poller/
func BenchmarkPingWhileAHundredChatsWaitOnASlowSource(b *testing.B) {
	const chats, wait = 100, 8 * time.Second
	source := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(wait):
			_, _ = io.WriteString(w, "42.0")
		case <-r.Context().Done():
		}
	}))
	defer source.Close()
	srv := telegramtest.New(b)
	bot := apptest.NewWithServer(b, srv, []app.Factory{misc.Factory, sourceModule(source.URL)})
	p := poller.New(bot.Client, bot.Store.For(storage.CoreNamespace), bot.App.HandleUpdate,
		poller.WithLongPoll(10*time.Second), poller.WithLogger(slog.New(slog.DiscardHandler)),
		poller.WithCutAtOnce(errStop))
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	defer func() { cancel(errStop); <-done }()

	// Enough /chart for every chat to wait on the source all along, even
	// when only part of them run at once.
	const perChat = 30
	for range perChat {
		for chat := int64(1); chat <= chats; chat++ {
			srv.Push(telegramtest.Text(chat, chat, "/chart"))
		}
	}
	var lat []time.Duration
	for n := 0; b.Loop(); n++ {
		chat := int64(10_000 + n)
		sent := time.Now()
		srv.Push(telegramtest.Text(chat, chat, "/ping"))
		at, err := replyTo(b, srv, chat, time.Minute)
		if err != nil {
			b.Fatal(fmt.Errorf("ping %d: %w", n+1, err))
		}
		lat = append(lat, at.Sub(sent))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}
