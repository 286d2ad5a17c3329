package container

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/prom"
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

// serveMetrics serves GET /metrics on METRICS_PORT, a listener apart from
// the bot's PORT: Coolify's proxy routes the public domain to PORT only, so
// metrics are never published by accident. stop ends it.
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
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(b.Config.MetricsPort))
	if err != nil {
		return nil, fmt.Errorf("listen on METRICS_PORT %d: %w", b.Config.MetricsPort, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", p.sink.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	b.Log.Info("metrics listening", "addr", ln.Addr().String(), "path", "/metrics")
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			b.Log.Error("metrics server failed", "err", err)
		}
	}()
	return func(ctx context.Context) { _ = srv.Shutdown(ctx) }, nil
}
