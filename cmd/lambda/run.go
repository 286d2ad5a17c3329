package main

import (
	"cmp"
	"context"
	"io"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/lambdaevent"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/emf"
	"github.com/miti99bot/miti99bot/internal/storage/stores"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// started is when this package initialised: the init duration reported
// with the first invocation counts from here (the runtime's REPORT line
// has the whole of it, package inits included).
var started = time.Now()

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
	// Metrics leave as CloudWatch EMF lines, flushed at each invocation's end.
	sink := emf.New("miti99bot", map[string]string{"function": cmp.Or(getenv("AWS_LAMBDA_FUNCTION_NAME"), "miti99bot")})
	b, err := wiring.Build(ctx, wiring.Options{
		Runtime: wiring.RuntimeLambda, Getenv: getenv, Logs: stdout,
		AWS:     awsenv.Lambda(getenv), // not the shared-config chain: see package awsenv
		Metrics: func(*config.Config) metrics.Sink { return sink },
		Require: []string{"TELEGRAM_WEBHOOK_SECRET"}, // Telegram reaches Lambda only by webhook
		// DynamoDB, or the memory store: the binary links no other driver.
		Stores: stores.Set{config.BackendDynamoDB: stores.DynamoDB, config.BackendMemory: stores.Memory},
		Store:  []stores.Option{stores.WithoutTableCheck()}, // the first update finds a wrong table
	})
	if err != nil {
		return nil, err
	}
	// One CAS per cold start; only the first instance of a build sends.
	// Unlike the container, no menu re-sync on every start: cold starts are
	// frequent and each would cost a Bot API call before the first update.
	b.App.NotifyDeploy(ctx, buildinfo.Commit())
	b.Metrics.Init(time.Since(started))
	return &lambdaevent.Handler{
		HTTP:  b.HTTP,
		Cron:  b.Dispatcher.Dispatch,
		Flush: func(ctx context.Context) { sink.Flush(ctx, b.Log) },
	}, nil
}
