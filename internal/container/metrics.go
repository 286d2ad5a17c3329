package container

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/prom"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// Prometheus is the container's metrics: Prometheus text, kept only when
// METRICS_ENABLED. Its Sink goes in wiring.Options.Metrics, and Serve
// serves what it kept.
type Prometheus struct{ sink *prom.Sink }

// Sink makes the sink when cfg enables metrics (nil otherwise), for
// wiring.Options.Metrics.
func (p *Prometheus) Sink(cfg *config.Config) metrics.Sink {
	if !cfg.MetricsEnabled {
		return nil
	}
	p.sink = prom.New()
	return p.sink
}

// serveMetrics serves GET /metrics on METRICS_HOST:METRICS_PORT, a
// listener apart from the bot's PORT: Coolify's proxy routes the public
// domain to PORT only, so metrics are never published by accident. It has
// PORT's timeouts, so an idle or slow client cannot hold a connection. stop
// ends it.
func serveMetrics(b *wiring.Bot, p *Prometheus) (stop func(context.Context), err error) {
	if p == nil || p.sink == nil {
		return func(context.Context) {}, nil
	}
	// The series alerts watch show from the first scrape, so that they
	// also fire after a restart (metrics.Metrics.DeclareCron).
	var jobs []string
	for _, j := range b.App.Registry().Crons() {
		jobs = append(jobs, j.Name)
	}
	b.Metrics.DeclareCron(jobs...)
	b.Metrics.DeclareUpdates(telegram.AllowedUpdates...)
	if b.Config.WebhookURL == "" {
		// Every replica may come to poll; summed over them, the answers
		// show whether any does (deploy/prometheus/alerts.yml).
		b.Metrics.DeclareBotAPI(telegram.MethodGetUpdates)
	}
	namespaces := []string{storage.CoreNamespace}
	for _, m := range b.App.Registry().Modules() {
		namespaces = append(namespaces, m.Name)
	}
	b.Metrics.DeclareDamaged(namespaces...)
	return listenMetrics(b.Log, b.Config.MetricsHost, b.Config.MetricsPort, p.sink.Handler())
}

// listenMetrics serves h at host:port until stop.
func listenMetrics(log *slog.Logger, host string, port int, h http.Handler) (stop func(context.Context), err error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on METRICS_HOST:METRICS_PORT %s: %w", addr, err)
	}
	srv := metricsServer(h)
	log.Info("metrics listening", "addr", ln.Addr().String(), "path", "/metrics")
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server failed", "err", err)
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
