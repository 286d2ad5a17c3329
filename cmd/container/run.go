package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/console"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/lease"
	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// shutdownBudget bounds the whole graceful shutdown (compose gives 20 s
// before SIGKILL).
const shutdownBudget = 15 * time.Second

// handlerGrace is how long an update in flight may go on after SIGTERM. It
// is shorter than an update's own budget (app.UpdateBudget), so a handler
// still running then is cut: it fails and is recorded as failed within
// the shutdown budget, and is handled again after the restart, instead of
// being abandoned as "running" until its claim goes stale.
const handlerGrace = 10 * time.Second

// consoleInput is what -console reads; tests replace it.
var consoleInput io.Reader = os.Stdin

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("container", flag.ContinueOnError)
	fs.SetOutput(stderr)
	consoleMode := fs.Bool("console", false, "chat with the bot in this terminal (no token, no network)")
	healthcheck := fs.Bool("healthcheck", false, "GET this container's /healthz and exit 0 if healthy (for Docker's HEALTHCHECK)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *healthcheck {
		return checkHealth(ctx, getenv("PORT"))
	}

	o := wiring.Options{Runtime: wiring.RuntimeContainer, Getenv: getenv, Logs: stdout}
	if *consoleMode {
		o.Console, o.Logs = stdout, stderr // the chat owns stdout
	}
	b, err := wiring.Build(ctx, o)
	if err != nil {
		return err
	}
	defer b.Close()
	if *consoleMode {
		return runConsole(ctx, b, stdout)
	}
	return serve(ctx, b)
}

// serve runs polling, cron and HTTP until ctx ends, then shuts down in order:
// stop polling (handlers in flight finish), stop cron (running jobs finish),
// stop HTTP; the store is closed by run. All of it within shutdownBudget.
func serve(ctx context.Context, b *wiring.Bot) error {
	log := b.Log
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(b.Config.Port))
	if err != nil {
		return fmt.Errorf("listen on PORT %d: %w", b.Config.Port, err)
	}
	srv := httpapi.NewServer(b.HTTP)
	log.Info("http listening", "addr", ln.Addr().String())

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
	if b.Config.WebhookURL != "" {
		wg.Go(func() { registerWebhook(ctx, b) })
	} else {
		wg.Go(func() { poll(ctx, b) })
	}
	sched := cron.NewScheduler(b.Dispatcher)
	wg.Go(func() {
		if err := sched.Run(ctx); err != nil {
			log.Error("cron scheduler", "err", err)
		}
	})

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
	log.Info("stopped")
	return runErr
}

// runConsole chats on the terminal, with the in-process cron running.
func runConsole(ctx context.Context, b *wiring.Bot, stdout io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	sched := cron.NewScheduler(b.Dispatcher)
	wg.Go(func() {
		if err := sched.Run(ctx); err != nil {
			b.Log.Error("cron scheduler", "err", err)
		}
	})
	err := console.Run(ctx, consoleInput, stdout, b.App.HandleUpdate)
	cancel()
	wg.Wait()
	return err
}

// checkHealth is the container's HEALTHCHECK: distroless has no curl.
func checkHealth(ctx context.Context, port string) error {
	if port == "" {
		port = "8080"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:"+port+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("unhealthy: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: /healthz answered %d", resp.StatusCode)
	}
	return nil
}

// Polling and webhook modes differ on purpose: polling is one consumer per
// bot (Telegram answers a second one 409), so replicas take turns through a
// lease in the store; a webhook is answered by whichever replica the load
// balancer picks, so every replica serves and none polls.

// pollLease is how long a poller holds the role without renewing it; a
// replica that died hands over after this.
const pollLease = 30 * time.Second

// poll runs the poller while this replica holds the polling lease. A
// replica that waits is healthy (it stands by); the one that polls answers
// for its poller.
func poll(ctx context.Context, b *wiring.Bot) {
	p := poller.New(b.Client, b.App.HandleUpdate, poller.WithLogger(b.Log), poller.WithGrace(handlerGrace))
	var polling atomic.Bool
	b.AddHealth(func(ctx context.Context) error { // the container answers nobody if polling is dead
		if !polling.Load() {
			return nil
		}
		return p.Health(ctx)
	})
	owner := fmt.Sprintf("%s-%d", hostname(), time.Now().UnixNano())
	l := lease.New(b.Store.For(app.CoreNamespace), "poller:lease", owner, pollLease)
	_ = l.Hold(ctx, func(held context.Context) {
		polling.Store(true)
		defer polling.Store(false)
		b.Log.Info("this replica polls", "owner", owner)
		_ = p.Run(held)
		if context.Cause(held) == lease.ErrLost {
			b.Log.Warn("the polling lease went to another replica; standing by")
		}
	}, func() { b.Log.Info("another replica polls; standing by") })
}

// registerWebhook points Telegram at this deployment's webhook (webhook
// mode), retrying with back-off until it succeeds or the process stops.
func registerWebhook(ctx context.Context, b *wiring.Bot) {
	for attempt := 0; ; attempt++ {
		err := b.Client.SetWebhook(ctx, b.Config.WebhookURL, b.Config.WebhookSecret.Reveal(), telegram.AllowedUpdates)
		if err == nil {
			b.Log.Info("webhook mode: Telegram delivers to the webhook; not polling", "url", b.Config.WebhookURL)
			return
		}
		b.Log.Error("setWebhook failed; retrying", "err", err)
		if pause.For(ctx, min(time.Second<<min(attempt, 6), time.Minute)) != nil {
			return
		}
	}
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "replica"
	}
	return h
}
