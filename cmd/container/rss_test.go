package main

import (
	"context"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// BenchmarkIdleRSS is the resident memory of the container on the memory
// store once it has answered a few /ping and gone idle, next to a bare
// go-telegram/bot poller doing the same (issue #19): report MiB-rss.
// `go test -run '^$' -bench IdleRSS -benchtime 1x ./cmd/container/`
func BenchmarkIdleRSS(b *testing.B) {
	cases := []struct {
		name string
		bin  func(b *testing.B, env map[string]string) *testenv.Process
	}{
		{"container", func(b *testing.B, env map[string]string) *testenv.Process {
			return runtimetest.StartContainer(b, env).Process
		}},
		{"bare", func(b *testing.B, env map[string]string) *testenv.Process {
			return testenv.Start(b, env, runtimetest.Build(b, "./tools/barepoller"))
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var rss int64
			for b.Loop() {
				srv := telegramtest.New(b)
				p := c.bin(b, map[string]string{
					"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
					"OWNER_ID": "1", "LOG_LEVEL": "error",
				})
				const pings = 20
				var ups []*models.Update
				for i := range pings {
					ups = append(ups, telegramtest.Text(int64(100+i), 7, "/ping"))
				}
				srv.Push(ups...)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				if _, err := srv.WaitCalls(ctx, "sendMessage", pings); err != nil {
					b.Fatal(err)
				}
				cancel()
				n, err := p.RSS()
				if err != nil {
					b.Fatal(err)
				}
				rss = max(rss, n)
				p.Kill()
			}
			b.ReportMetric(float64(rss)/(1<<20), "MiB-rss")
		})
	}
}
