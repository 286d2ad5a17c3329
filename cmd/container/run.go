package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/console"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/logging"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// shutdownBudget bounds the whole graceful shutdown.
const shutdownBudget = 15 * time.Second

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

	catalogue := builtin.Catalogue()
	var settings []app.Setting
	for _, f := range catalogue {
		settings = append(settings, f.Settings...)
	}
	var require []string
	if !*consoleMode {
		require = []string{"TELEGRAM_BOT_TOKEN"}
	}
	cfg, err := config.Load(ctx, config.Options{Getenv: getenv, Settings: settings, Require: require})
	if err != nil {
		return err
	}
	logOut := stdout
	if *consoleMode {
		logOut = stderr // the chat owns stdout
	}
	log := logging.New(logOut, cfg.LogLevel, cfg.Secrets())
	log.Info("starting", "runtime", "container", "console", *consoleMode, "git_sha", buildinfo.GitSHA, "config", cfg)

	store, err := backend.Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeStore(store.Close, log)

	var bot app.Messenger
	var client *telegram.Client
	owner := cfg.OwnerID
	if *consoleMode {
		bot = console.NewMessenger(stdout)
		if owner == 0 {
			owner = console.UserID // the person at the terminal owns the bot
		}
	} else {
		client, err = telegram.New(cfg.TelegramToken.Reveal(), telegram.WithAPIURL(cfg.TelegramAPIURL), telegram.WithLogger(log))
		if err != nil {
			return err
		}
		bot = client
	}
	a, err := app.New(store, bot,
		app.WithModules(catalogue, cfg.Modules...),
		app.WithOwner(owner, cfg.AdminIDs...),
		app.WithSettings(cfg.ModuleSettings()),
		app.WithBotUsername(cfg.BotUsername),
		app.WithLogger(log))
	if err != nil {
		return err
	}
	if err := cron.Validate(a.Registry()); err != nil {
		return err
	}
	dispatcher := cron.NewDispatcher(a)

	if *consoleMode {
		return runConsole(ctx, a, dispatcher, stdout, log)
	}
	return serve(ctx, cfg, a, client, dispatcher, log)
}

// serve runs polling, cron and HTTP until ctx ends, then shuts down in order:
// stop polling (handlers in flight finish), stop cron (running jobs finish),
// stop HTTP; the store is closed by run. All of it within shutdownBudget.
func serve(ctx context.Context, cfg *config.Config, a *app.App, client *telegram.Client, d *cron.Dispatcher, log *slog.Logger) error {
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(cfg.Port))
	if err != nil {
		return fmt.Errorf("listen on PORT %d: %w", cfg.Port, err)
	}
	srv := &http.Server{
		Handler: httpapi.NewHandler(httpapi.Config{
			App: a, Dispatcher: d, WebhookSecret: cfg.WebhookSecret.Reveal(), CronSecret: cfg.CronSecret.Reveal(), Log: log,
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Info("http listening", "addr", ln.Addr().String())

	if !a.NotifyDeploy(ctx, buildinfo.GitSHA) {
		// No new build to announce: still make sure the menu matches.
		if err := a.SyncCommands(ctx); err != nil {
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
	p := poller.New(client, a.HandleUpdate, poller.WithLogger(log))
	wg.Go(func() { _ = p.Run(ctx) })
	sched := cron.NewScheduler(a, d)
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
func runConsole(ctx context.Context, a *app.App, d *cron.Dispatcher, stdout io.Writer, log *slog.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	sched := cron.NewScheduler(a, d)
	wg.Go(func() {
		if err := sched.Run(ctx); err != nil {
			log.Error("cron scheduler", "err", err)
		}
	})
	err := console.Run(ctx, consoleInput, stdout, a.HandleUpdate)
	cancel()
	wg.Wait()
	return err
}

func closeStore(closeFn func(context.Context) error, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := closeFn(ctx); err != nil {
		log.Warn("closing the store", "err", err)
	}
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
