// Package container is the container runtime: the bot served over HTTP,
// polling or webhook mode, the in-process cron and an orderly shutdown.
// cmd/container only parses flags and wires.
package container

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// shutdownBudget bounds the whole graceful shutdown (compose gives 20 s
// before SIGKILL).
const shutdownBudget = 15 * time.Second

// handlerGrace is how long an update in flight may go on after SIGTERM. It
// is shorter than an update's own budget (core.UpdateBudget), so a handler
// still running then is cut: it fails and is recorded as failed within
// the shutdown budget, and is handled again after the restart, instead of
// being abandoned as "running" until its claim goes stale.
const handlerGrace = 10 * time.Second

// Serve runs the bot (polling or webhook mode), cron and HTTP until ctx
// ends, then shuts down in order: stop polling (handlers in flight finish),
// stop cron (running jobs finish, or are cut after cron.RunGrace), stop
// HTTP; the store is closed by the caller. All of it within shutdownBudget.
// m serves /metrics when it made a sink (nil: no metrics).
func Serve(ctx context.Context, b *wiring.Bot, m *Prometheus) error {
	log := b.Log
	ln, err := listenHTTP(b.Config.BindAddr, b.Config.Port)
	if err != nil {
		return err
	}
	srv := httpapi.NewServer(b.HTTP)
	log.Info("http listening", "addr", ln.Addr().String())
	stopMetrics, err := serveMetrics(b, m)
	if err != nil {
		_ = ln.Close()
		return err
	}

	if !b.App.NotifyDeploy(ctx, buildinfo.Commit()) {
		// No new build to announce: still make sure the menu matches. The
		// container starts rarely, so this costs little (Lambda skips it).
		if err := b.App.SyncCommands(ctx); err != nil {
			log.Warn("command menu not updated", "err", err)
		}
	}

	var wg sync.WaitGroup
	httpErr := make(chan error, 1)
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			httpErr <- err
		}
	}()
	wg.Go(func() { checkClock(ctx, b.Config.TelegramAPIURL, time.Now, log, b.Metrics) })
	if b.Config.WebhookURL != "" {
		wg.Go(func() { registerWebhook(ctx, b); drain(ctx, b) })
	} else {
		wg.Go(func() { poll(ctx, b) })
	}
	runCron(ctx, &wg, b)

	var runErr error
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case runErr = <-httpErr:
		log.Error("http server failed", "err", runErr)
	}
	deadline, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownBudget)
	defer cancel()
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-deadline.Done():
		log.Error("shutdown budget exceeded; work in flight abandoned")
	}
	if err := srv.Shutdown(deadline); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	stopMetrics(deadline)
	log.Info("stopped")
	return runErr
}

// listenHTTP listens on host:port, the bot's HTTP (host "": every interface).
func listenHTTP(host string, port int) (net.Listener, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on BIND_ADDR:PORT %s: %w", addr, err)
	}
	return ln, nil
}
