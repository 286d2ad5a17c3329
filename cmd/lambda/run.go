package main

import (
	"context"
	"io"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/lambdaevent"
	"github.com/miti99bot/miti99bot/internal/logging"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// run builds everything once per execution environment (config, SSM,
// store client), outside the handler, then serves invocations forever.
func run(ctx context.Context, _ []string, getenv func(string) string, stdout, _ io.Writer) error {
	h, err := setup(ctx, getenv, stdout)
	if err != nil {
		return err
	}
	lambda.Start(h.Invoke) // serves until the execution environment ends
	return nil
}

func setup(ctx context.Context, getenv func(string) string, stdout io.Writer) (*lambdaevent.Handler, error) {
	catalogue := builtin.Catalogue()
	var settings []app.Setting
	for _, f := range catalogue {
		settings = append(settings, f.Settings...)
	}
	cfg, err := config.Load(ctx, config.Options{
		Getenv: getenv, Settings: settings,
		Require: []string{"TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET"},
	})
	if err != nil {
		return nil, err
	}
	log := logging.New(stdout, cfg.LogLevel, cfg.Secrets())
	log.Info("starting", "runtime", "lambda", "git_sha", buildinfo.GitSHA, "config", cfg)
	store, err := backend.Open(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	client, err := telegram.New(cfg.TelegramToken.Reveal(), telegram.WithAPIURL(cfg.TelegramAPIURL), telegram.WithLogger(log))
	if err != nil {
		return nil, err
	}
	a, err := app.New(store, client,
		app.WithModules(catalogue, cfg.Modules...),
		app.WithOwner(cfg.OwnerID, cfg.AdminIDs...),
		app.WithSettings(cfg.ModuleSettings()),
		app.WithBotUsername(cfg.BotUsername),
		app.WithLogger(log))
	if err != nil {
		return nil, err
	}
	if err := cron.Validate(a.Registry()); err != nil {
		return nil, err
	}
	// One CAS per cold start; only the first instance of a build sends.
	a.NotifyDeploy(ctx, buildinfo.GitSHA)

	d := cron.NewDispatcher(a)
	return &lambdaevent.Handler{
		HTTP: httpapi.NewHandler(httpapi.Config{
			App: a, Dispatcher: d, WebhookSecret: cfg.WebhookSecret.Reveal(), CronSecret: cfg.CronSecret.Reveal(), Log: log,
		}),
		Cron: func(ctx context.Context, name string, scheduled time.Time) error {
			_, err := d.Dispatch(ctx, name, scheduled)
			return err
		},
	}, nil
}
