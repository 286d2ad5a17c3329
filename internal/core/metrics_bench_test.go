package core_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/emf"
	"github.com/miti99bot/miti99bot/internal/metrics/prom"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/metered"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// BenchmarkPingWithMetrics is one /ping through the core, the Telegram
// client and the store wrapper with the metric set off, kept for Prometheus
// (the container), and kept then flushed as an EMF line per update (Lambda,
// which flushes at each invocation's end). The ratios to "off" are the
// metrics' cost (issue #20).
func BenchmarkPingWithMetrics(b *testing.B) {
	srv := telegramtest.New(b)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	emfSink := emf.New("miti99bot", map[string]string{"function": "bench"})
	cases := []struct {
		name  string
		sink  metrics.Sink
		flush func(context.Context)
	}{
		{"off", nil, nil},
		{"prometheus", prom.New(), nil},
		{"emf", emfSink, func(ctx context.Context) { emfSink.Flush(ctx, slog.New(slog.NewJSONHandler(io.Discard, nil))) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var m *metrics.Metrics
			if c.sink != nil {
				m = metrics.New(c.sink)
			}
			client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL), telegram.WithRates(rate.Inf, rate.Inf), telegram.WithMetrics(m))
			if err != nil {
				b.Fatal(err)
			}
			var store storage.KVProvider = metered.Wrap(memory.New(), "memory", m)
			a, err := core.New(store, client, core.WithModules(builtin.Catalogue()), core.WithBotUsername("miti99bot"),
				core.WithLogger(quiet), core.WithMetrics(m))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var id int64
			for b.Loop() {
				id++
				if err := a.HandleUpdate(ctx, withID(telegramtest.Text(benchChat, 3, "/ping"), id)); err != nil {
					b.Fatal(err)
				}
				if c.flush != nil {
					c.flush(ctx)
				}
			}
		})
	}
}
