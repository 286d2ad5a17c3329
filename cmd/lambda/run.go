package main

import (
	"context"
	"io"
	"time"

	"github.com/miti99bot/miti99bot/internal/awsenv"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/lambdaevent"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// run builds everything once per execution environment (config, SSM,
// store client), outside the handler, then serves invocations forever.
// The store is never closed: the environment ends without telling us.
func run(ctx context.Context, _ []string, getenv func(string) string, stdout, _ io.Writer) error {
	h, err := setup(ctx, getenv, stdout)
	if err != nil {
		return err
	}
	lambda.Start(h.Invoke) // serves until the execution environment ends
	return nil
}

func setup(ctx context.Context, getenv func(string) string, stdout io.Writer) (*lambdaevent.Handler, error) {
	b, err := wiring.Build(ctx, wiring.Options{
		Runtime: wiring.RuntimeLambda, Getenv: getenv, Logs: stdout,
		AWS:     awsenv.Lambda(getenv),               // not the shared-config chain: see package awsenv
		Require: []string{"TELEGRAM_WEBHOOK_SECRET"}, // Telegram reaches Lambda only by webhook
	})
	if err != nil {
		return nil, err
	}
	// One CAS per cold start; only the first instance of a build sends.
	// Unlike the container, no menu re-sync on every start: cold starts are
	// frequent and each would cost a Bot API call before the first update.
	b.App.NotifyDeploy(ctx, buildinfo.Commit())
	return &lambdaevent.Handler{
		HTTP: b.HTTP,
		Cron: func(ctx context.Context, name string, scheduled time.Time) error {
			_, err := b.Dispatcher.Dispatch(ctx, name, scheduled)
			return err
		},
	}, nil
}
