package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

func webhookSet(ctx context.Context, e env) error {
	args, err := e.positional(e.flags(), 1)
	if err != nil {
		return err
	}
	target := args[0]
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
	fs := e.flags()
	drop := fs.Bool("drop-pending", false, "also drop the updates Telegram holds (they are lost)")
	if _, err := e.positional(fs, 0); err != nil {
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
	if _, err := e.positional(e.flags(), 0); err != nil {
		return err
	}
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
	if _, err := e.positional(e.flags(), 0); err != nil {
		return err
	}
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
	menus := a.Registry().Menus()
	fmt.Fprintf(e.stdout, "published %d commands in %d menus (default and groups, in %d languages)\n", len(menus[0].Commands), len(menus), len(locale.Langs))
	return nil
}
