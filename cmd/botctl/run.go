package main

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/awsenv/shared"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

const usage = `usage:
  botctl webhook set <url>
  botctl webhook delete [-drop-pending]
  botctl webhook info
  botctl commands sync
  botctl cron run <name> -url <deployment base URL>
  botctl cron status             (the configured store: each job's last success and failure, next fire)
  botctl table create <name>     (local development and tests only)`

var errUsage = errors.New(usage)

// env is what every sub-command gets: its arguments (after the two words
// naming it), the bot's environment and where to print.
type env struct {
	args           []string
	getenv         func(string) string
	stdout, stderr io.Writer
}

// commands is the dispatch table: "group verb" to its function.
var commands = map[string]func(ctx context.Context, e env) error{
	"webhook set":    webhookSet,
	"webhook delete": webhookDelete,
	"webhook info":   webhookInfo,
	"commands sync":  commandsSync,
	"cron run":       cronRun,
	"cron status":    cronStatus,
	"table create":   tableCreate,
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		return errUsage
	}
	cmd, ok := commands[args[0]+" "+args[1]]
	if !ok {
		return errUsage
	}
	return cmd(ctx, env{args: args[2:], getenv: getenv, stdout: stdout, stderr: stderr})
}

// connect loads the configuration (the token, and what the command needs on
// top) and builds the Telegram client.
func (e env) connect(ctx context.Context, require ...string) (*config.Config, *telegram.Client, error) {
	cfg, err := wiring.LoadConfig(ctx, e.getenv, shared.Load, append([]string{"TELEGRAM_BOT_TOKEN"}, require...)...)
	if err != nil {
		return nil, nil, err
	}
	c, err := wiring.NewClient(cfg, slog.Default())
	return cfg, c, err
}
