package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// askTimeout bounds asking the bot for its cron status: one store read.
const askTimeout = 30 * time.Second

// maxStatusBody bounds the bot's answer (a row per job).
const maxStatusBody = 1 << 16

// cronStatus prints each job's record, naming the store it came from: what
// an operator asks after a missed morning. It reads the configured store,
// or asks the running bot (GET <url>/cron/status) when -url says so or the
// store cannot be read here: none is configured (botctl's own memory store
// holds nothing the bot ran), or it is the embedded file, which the running
// bot holds locked.
func cronStatus(ctx context.Context, e env) error {
	flags := e.flags()
	base := flags.String("url", "", "ask the running bot at this base URL instead of reading the store: https, or http on loopback, with CRON_SHARED_SECRET "+
		"(default $BOT_URL, asked only when the store cannot be read here)")
	if _, err := e.positional(flags, 0); err != nil {
		return err
	}
	cfg, err := wiring.LoadConfig(ctx, e.getenv, defaultchain.Load)
	if err != nil {
		return err
	}
	if *base != "" {
		return askBot(ctx, e, cfg, *base)
	}
	fallback := e.getenv("BOT_URL")
	if cfg.Backend == config.BackendMemory {
		why := "no store is configured here (set the bot's BOLT_PATH, MONGO_URL and MONGO_DATABASE, or DYNAMODB_TABLE)"
		if e.getenv("KV_PROVIDER") == config.BackendMemory {
			why = "KV_PROVIDER=memory: a memory store is the bot process's own"
		}
		return orAsk(ctx, e, cfg, fallback, why)
	}
	if cfg.Backend == config.BackendBolt {
		// Opening creates a missing file: a mistyped path would read as
		// an empty store where nothing has run.
		if _, err := os.Stat(cfg.BoltPath); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cron status: BOLT_PATH %s does not exist: not the bot's file", cfg.BoltPath)
		}
	}
	store, err := backend.Open(ctx, cfg, slog.New(slog.DiscardHandler))
	if errors.Is(err, bolt.ErrLocked) {
		return orAsk(ctx, e, cfg, fallback, cfg.BoltPath+" is open in the running bot (the file is locked)")
	}
	if err != nil {
		return err
	}
	defer func() { _ = store.Close(context.WithoutCancel(ctx)) }()
	// The registry names the jobs MODULES enables, so a job that never ran
	// is listed too; a memory store builds it and nothing of it runs.
	a, err := wiring.NewApp(cfg, memory.New(), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	statuses, err := cron.Statuses(ctx, store.For(storage.CoreNamespace), a.Registry().Crons(), time.Now())
	if err != nil {
		return err
	}
	return cron.WriteTable(e.stdout, backend.Describe(cfg), cron.Redacted(statuses, cfg.Secrets()...))
}

// orAsk asks the bot at base when there is one, saying why on stderr, and
// else fails saying why and how to ask it.
func orAsk(ctx context.Context, e env, cfg *config.Config, base, why string) error {
	if base == "" {
		return fmt.Errorf("cron status: %s. The running bot answers: give -url <its base URL> (or BOT_URL) and CRON_SHARED_SECRET, "+
			"or send /cron_status as the owner in Telegram", why)
	}
	shown := base
	if u, err := url.Parse(base); err == nil {
		shown = u.Redacted()
	}
	fmt.Fprintf(e.stderr, "cron status: %s; asking the bot at %s\n", why, shown)
	return askBot(ctx, e, cfg, base)
}

// askBot prints the bot's own answer to GET <base>/cron/status.
func askBot(ctx context.Context, e env, cfg *config.Config, base string) error {
	if !cfg.CronSecret.IsSet() {
		return errors.New("cron status: asking the bot needs CRON_SHARED_SECRET, the deployment's")
	}
	target, err := cronURL(base, "status")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("cron status: %w", err)
	}
	req.Header.Set("X-Cron-Token", cfg.CronSecret.Reveal())
	resp, err := cronClient.Do(req)
	if err != nil {
		return fmt.Errorf("cron status: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxStatusBody))
	text := string(body)
	switch code := resp.StatusCode; {
	case code == http.StatusOK && strings.HasPrefix(text, cron.StorePrefix):
		_, err := io.WriteString(e.stdout, text)
		return err
	case code == http.StatusOK:
		// A 200 from anything else (a login page) is not the bot's answer.
		return fmt.Errorf("cron status: 200 answering %q, not the bot's /cron/status: is the URL the bot's deployment?", clip(strings.TrimSpace(text)))
	}
	return refusal("cron status", resp, strings.TrimSpace(text), "the deployment has no CRON_SHARED_SECRET, or its build has no /cron/status")
}
