package container

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/prom"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// PrometheusSink is the container's metrics: Prometheus text, kept only when
// METRICS_ENABLED (wiring.Options.Metrics).
func PrometheusSink(cfg *config.Config) metrics.Sink {
	if !cfg.MetricsEnabled {
		return nil
	}
	return prom.New()
}

// serveMetrics serves GET /metrics on METRICS_HOST:METRICS_PORT, a
// listener apart from the bot's PORT: Coolify's proxy routes the public
// domain to PORT only, so metrics are never published by accident. It has
// PORT's timeouts, so an idle or slow client cannot hold a connection. stop
// ends it.
func serveMetrics(b *wiring.Bot) (stop func(context.Context), err error) {
	h, ok := b.Sink.(interface{ Handler() http.Handler })
	if !ok {
		return func(context.Context) {}, nil
	}
	addr := net.JoinHostPort(b.Config.MetricsHost, strconv.Itoa(b.Config.MetricsPort))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on METRICS_HOST:METRICS_PORT %s: %w", addr, err)
	}
	srv := metricsServer(h.Handler())
	b.Log.Info("metrics listening", "addr", ln.Addr().String(), "path", "/metrics")
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			b.Log.Error("metrics server failed", "err", err)
		}
	}()
	return func(ctx context.Context) { _ = srv.Shutdown(ctx) }, nil
}

// metricsServer serves h at GET /metrics with the bot's HTTP timeouts.
func metricsServer(h http.Handler) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	return httpapi.NewServer(mux)
}
