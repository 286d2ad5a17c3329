package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/container"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// consoleInput is what -console reads; tests replace it.
var consoleInput io.Reader = os.Stdin

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("container", flag.ContinueOnError)
	fs.SetOutput(stderr)
	consoleMode := fs.Bool("console", false, "chat with the bot in this terminal (no token, no Telegram; the modules' own APIs are still called)")
	consoleLog := fs.String("log", "", "with -console: the file the logs go to (default: a new file in the temporary directory; - for stderr)")
	consoleLang := fs.String("lang", "", "with -console: the language your Telegram client is set to, as its language_code (vi: the bot speaks Vietnamese; default: English)")
	healthcheck := fs.Bool("healthcheck", false, "GET this container's /healthz and exit 0 if healthy (for Docker's HEALTHCHECK)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *healthcheck {
		return container.CheckHealth(ctx, getenv("BIND_ADDR"), getenv("PORT"))
	}

	var m container.Prometheus
	o := wiring.Options{Runtime: wiring.RuntimeContainer, Getenv: getenv, Logs: stdout, AWS: defaultchain.Load, Metrics: m.Sink,
		Stores: backend.Every, Check: container.RefuseUnfinishedRestore, Jobs: container.Jobs}
	logsAt := ""
	if *consoleMode {
		// The chat owns stdout, and a terminal shows stderr among it: the
		// logs go to a file unless asked for on stderr.
		logs, at, closeLogs, err := openConsoleLog(*consoleLog, stderr)
		if err != nil {
			return err
		}
		defer closeLogs()
		o.Console, o.Logs, logsAt = stdout, logs, at
	}
	b, err := wiring.Build(ctx, o)
	if err != nil {
		return err
	}
	defer b.Close()
	if *consoleMode {
		b.Console.Logs, b.Console.Lang = logsAt, *consoleLang
		return container.Console(ctx, b, consoleInput, stdout)
	}
	return container.Serve(ctx, b, &m)
}
