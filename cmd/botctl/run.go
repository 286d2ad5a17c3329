package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv/shared"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
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

func webhookSet(ctx context.Context, e env) error {
	if len(e.args) != 1 {
		return errUsage
	}
	target := e.args[0]
	if u, err := url.Parse(target); err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("webhook URL %q: Telegram needs an https URL", target)
	}
	cfg, c, err := e.connect(ctx, "TELEGRAM_WEBHOOK_SECRET")
	if err != nil {
		return err
	}
	if err := c.SetWebhook(ctx, target, cfg.WebhookSecret.Reveal(), telegram.AllowedUpdates); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "webhook set to %s\n", target)
	return nil
}

func webhookDelete(ctx context.Context, e env) error {
	fs := flag.NewFlagSet("webhook delete", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	drop := fs.Bool("drop-pending", false, "also drop the updates Telegram holds (they are lost)")
	if err := fs.Parse(e.args); err != nil {
		return err
	}
	_, c, err := e.connect(ctx)
	if err != nil {
		return err
	}
	if err := c.DeleteWebhook(ctx, *drop); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "webhook deleted (pending updates %s)\n", map[bool]string{true: "dropped", false: "kept"}[*drop])
	return nil
}

func webhookInfo(ctx context.Context, e env) error {
	_, c, err := e.connect(ctx)
	if err != nil {
		return err
	}
	info, err := c.GetWebhookInfo(ctx)
	if err != nil {
		return err
	}
	u := info.URL
	if u == "" {
		u = "(none: the bot is polled)"
	}
	fmt.Fprintf(e.stdout, "url: %s\npending_update_count: %d\n", u, info.PendingUpdateCount)
	if info.LastErrorMessage != "" {
		fmt.Fprintf(e.stdout, "last_error: %s\n", info.LastErrorMessage)
	}
	return nil
}

func commandsSync(ctx context.Context, e env) error {
	cfg, c, err := e.connect(ctx)
	if err != nil {
		return err
	}
	// The registry is all that is needed: a memory store builds it.
	a, err := wiring.NewApp(cfg, memory.New(), c, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	if err := a.SyncCommands(ctx); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "published %d commands\n", len(a.Registry().MenuCommands()))
	return nil
}

// tableCreate makes a DynamoDB table; production tables come from
// template.yaml, so this is for dynalite.
func tableCreate(ctx context.Context, e env) error {
	if len(e.args) != 1 {
		return errUsage
	}
	client, err := dynamodb.NewClient(ctx, shared.Load)
	if err != nil {
		return err
	}
	if err := dynamodb.CreateTable(ctx, client, e.args[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s ready\n", e.args[0])
	return nil
}

func cronRun(ctx context.Context, e env) error {
	if len(e.args) < 1 {
		return errUsage
	}
	fs := flag.NewFlagSet("cron run", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	base := fs.String("url", e.getenv("BOT_URL"), "the deployment's base URL (default $BOT_URL)")
	name := e.args[0]
	if err := fs.Parse(e.args[1:]); err != nil {
		return err
	}
	if *base == "" {
		return errors.New("cron run needs -url (or BOT_URL): the deployment's base URL")
	}
	cfg, err := wiring.LoadConfig(ctx, e.getenv, shared.Load, "CRON_SHARED_SECRET")
	if err != nil {
		return err
	}
	return postCron(ctx, strings.TrimRight(*base, "/")+"/cron/"+url.PathEscape(name), cfg.CronSecret.Reveal(), e.stdout)
}

func postCron(ctx context.Context, target, token string, stdout io.Writer) error {
	// The answer comes when the run ends: up to the longest a job may take.
	ctx, cancel := context.WithTimeout(ctx, app.MaxCronTimeout+time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Cron-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	switch resp.StatusCode {
	case http.StatusOK:
		fmt.Fprintf(stdout, "cron: %s", body)
		return nil
	case http.StatusNotFound:
		return errors.New("cron: 404: no such job, or the deployment has no CRON_SHARED_SECRET")
	case http.StatusUnauthorized:
		return errors.New("cron: 401: CRON_SHARED_SECRET does not match the deployment's")
	}
	return fmt.Errorf("cron: %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
}

// cronStatus prints each job's record from the configured store: what an
// operator asks after a missed morning.
func cronStatus(ctx context.Context, e env) error {
	if len(e.args) != 0 {
		return errUsage
	}
	cfg, err := wiring.LoadConfig(ctx, e.getenv, shared.Load)
	if err != nil {
		return err
	}
	store, err := backend.Open(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer func() { _ = store.Close(context.WithoutCancel(ctx)) }()
	statuses, err := cron.Statuses(ctx, store.For(core.CoreNamespace))
	if err != nil {
		return err
	}
	if len(statuses) == 0 {
		fmt.Fprintln(e.stdout, "no cron job has run against this store yet")
		return nil
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "JOB\tLAST SUCCESS\tLAST FAILURE\tATTEMPTS\tNEXT FIRE")
	for _, s := range statuses {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", s.Job, slotOf(s.LastSuccess), slotOf(s.LastFailure), s.Attempts, s.NextFire.Format(time.RFC3339))
	}
	return w.Flush()
}

// slotOf is a run as "slot", or "slot (error)" for a failure; "-" for none.
func slotOf(r *cron.RunInfo) string {
	switch {
	case r == nil:
		return "-"
	case r.Error != "":
		return r.Slot.Format(time.RFC3339) + " (" + r.Error + ")"
	}
	return r.Slot.Format(time.RFC3339)
}
