package poller_test

import (
	"context"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// BenchmarkPingBehindASlowChat is the latency of a /ping in chat B sent
// while chat A's handler takes 5 s (a slow model or esports API): with one
// batch at a time B waited for A; with per-chat queues it should not.
// Run: go test -run '^$' -bench PingBehindASlowChat -benchtime 3x ./internal/poller/
func BenchmarkPingBehindASlowChat(b *testing.B) {
	const slow = 5 * time.Second
	srv := telegramtest.New(b)
	aStarted, bDone := make(chan struct{}, 1), make(chan time.Time, 1)
	handle := func(ctx context.Context, u *models.Update) error {
		switch u.Message.Chat.ID {
		case 1:
			aStarted <- struct{}{}
			select {
			case <-time.After(slow):
			case <-ctx.Done():
			}
		case 2:
			bDone <- time.Now()
		}
		return nil
	}
	p := poller.New(client(b, srv), store(), handle, poller.WithLongPoll(time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	var total time.Duration
	for b.Loop() {
		srv.Push(telegramtest.Text(1, 1, "/twentyq is it big?"))
		<-aStarted
		sent := time.Now()
		srv.Push(telegramtest.Text(2, 2, "/ping"))
		total += (<-bDone).Sub(sent)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/ping_behind_slow_chat")
}
