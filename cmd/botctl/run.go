package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

const usage = `usage:
  botctl webhook set <url>
  botctl webhook delete [-drop-pending]
  botctl webhook info
  botctl commands sync
  botctl cron run <name> -url <deployment base URL>
  botctl table create <name>     (local development and tests only)`

var errUsage = errors.New(usage)

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		return errUsage
	}
	catalogue := builtin.Catalogue()
	var settings []app.Setting
	for _, f := range catalogue {
		settings = append(settings, f.Settings...)
	}
	load := func(require ...string) (*config.Config, error) {
		return config.Load(ctx, config.Options{Getenv: getenv, Settings: settings, Require: require})
	}
	// connect loads the config (with what this command requires on top of
	// the token) and builds the Telegram client.
	connect := func(require ...string) (*config.Config, *telegram.Client, error) {
		cfg, err := load(append([]string{"TELEGRAM_BOT_TOKEN"}, require...)...)
		if err != nil {
			return nil, nil, err
		}
		c, err := telegram.New(cfg.TelegramToken.Reveal(), telegram.WithAPIURL(cfg.TelegramAPIURL))
		return cfg, c, err
	}

	switch args[0] + " " + args[1] {
	case "webhook set":
		if len(args) != 3 {
			return errUsage
		}
		if u, err := url.Parse(args[2]); err != nil || u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("webhook URL %q: Telegram needs an https URL", args[2])
		}
		cfg, c, err := connect("TELEGRAM_WEBHOOK_SECRET")
		if err != nil {
			return err
		}
		if err := c.SetWebhook(ctx, args[2], cfg.WebhookSecret.Reveal(), telegram.AllowedUpdates); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "webhook set to %s\n", args[2])
		return nil

	case "webhook delete":
		fs := flag.NewFlagSet("webhook delete", flag.ContinueOnError)
		fs.SetOutput(stderr)
		drop := fs.Bool("drop-pending", false, "also drop the updates Telegram holds (they are lost)")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		_, c, err := connect()
		if err != nil {
			return err
		}
		if err := c.DeleteWebhook(ctx, *drop); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "webhook deleted (pending updates %s)\n", map[bool]string{true: "dropped", false: "kept"}[*drop])
		return nil

	case "webhook info":
		_, c, err := connect()
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
		fmt.Fprintf(stdout, "url: %s\npending_update_count: %d\n", u, info.PendingUpdateCount)
		if info.LastErrorMessage != "" {
			fmt.Fprintf(stdout, "last_error: %s\n", info.LastErrorMessage)
		}
		return nil

	case "commands sync":
		cfg, c, err := connect()
		if err != nil {
			return err
		}
		// The registry is all that is needed: a memory store builds it.
		a, err := app.New(memory.New(), c, app.WithModules(catalogue, cfg.Modules...), app.WithSettings(cfg.ModuleSettings()))
		if err != nil {
			return err
		}
		if err := a.SyncCommands(ctx); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "published %d commands\n", len(a.Registry().MenuCommands()))
		return nil

	case "table create":
		// Production tables come from template.yaml; this is for dynalite.
		if len(args) != 3 {
			return errUsage
		}
		client, err := dynamodb.NewClient(ctx)
		if err != nil {
			return err
		}
		if err := dynamodb.CreateTable(ctx, client, args[2]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "table %s ready\n", args[2])
		return nil

	case "cron run":
		fs := flag.NewFlagSet("cron run", flag.ContinueOnError)
		fs.SetOutput(stderr)
		base := fs.String("url", getenv("BOT_URL"), "the deployment's base URL (default $BOT_URL)")
		if len(args) < 3 {
			return errUsage
		}
		name := args[2]
		if err := fs.Parse(args[3:]); err != nil {
			return err
		}
		if *base == "" {
			return errors.New("cron run needs -url (or BOT_URL): the deployment's base URL")
		}
		cfg, err := load("CRON_SHARED_SECRET")
		if err != nil {
			return err
		}
		return runCron(ctx, strings.TrimRight(*base, "/")+"/cron/"+url.PathEscape(name), cfg.CronSecret.Reveal(), stdout)
	}
	return errUsage
}

func runCron(ctx context.Context, target, token string, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
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
