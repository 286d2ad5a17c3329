package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/container"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// consoleInput is what -console reads; tests replace it.
var consoleInput io.Reader = os.Stdin

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("container", flag.ContinueOnError)
	fs.SetOutput(stderr)
	consoleMode := fs.Bool("console", false, "chat with the bot in this terminal (no token, no Telegram; the modules' own APIs are still called)")
	healthcheck := fs.Bool("healthcheck", false, "GET this container's /healthz and exit 0 if healthy (for Docker's HEALTHCHECK)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *healthcheck {
		return container.CheckHealth(ctx, getenv("PORT"))
	}

	var m container.Prometheus
	o := wiring.Options{Runtime: wiring.RuntimeContainer, Getenv: getenv, Logs: stdout, AWS: defaultchain.Load, Metrics: m.Sink, Jobs: container.Jobs}
	if *consoleMode {
		o.Console, o.Logs = stdout, stderr // the chat owns stdout
	}
	b, err := wiring.Build(ctx, o)
	if err != nil {
		return err
	}
	defer b.Close()
	if *consoleMode {
		return container.Console(ctx, b, consoleInput, stdout)
	}
	return container.Serve(ctx, b, &m)
}
