//go:build testkit

// Package testkit is a module for the runtime tests only: it is compiled in
// with -tags testkit and never into a release binary. It gives the process
// tests an echo command (ordering) and a slow cron job (graceful shutdown,
// cutover slot claims) that report through Telegram, and a slow command
// (a run in flight when a crash test kills the process).
package testkit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Name is the module's name in MODULES.
const Name = "testkit"

// Factory registers the module.
var Factory = app.Factory{
	Name:     Name,
	Settings: []app.Setting{{Name: "TESTKIT_JOB_DURATION", Default: "2s", Help: "how long the test job runs (tests only)"}},
	Jobs:     []string{"testkit_slow"},
	New:      New,
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	dur, err := time.ParseDuration(d.Settings["TESTKIT_JOB_DURATION"])
	if err != nil {
		return nil, fmt.Errorf("TESTKIT_JOB_DURATION: %w", err)
	}
	report := func(ctx context.Context, text string) error {
		_, err := d.Bot.Send(ctx, app.Message{ChatID: d.OwnerID, Text: text})
		return err
	}
	return &app.Module{
		Name: Name,
		Commands: []app.Command{{
			Name: "tk_echo", Description: "Echo the arguments (tests)",
			Handler: func(ctx context.Context, r *app.Request) error {
				if err := d.Store.Put(ctx, "last_echo", []byte(r.Args)); err != nil {
					return err
				}
				_, err := r.Reply(ctx, "echo: "+r.Args)
				return err
			},
		}, {
			// /tk_slow <duration> <text>: a run the crash tests interrupt.
			Name: "tk_slow", Description: "Report, wait, then echo (tests)",
			Handler: func(ctx context.Context, r *app.Request) error {
				arg, text, _ := strings.Cut(r.Args, " ")
				d, err := time.ParseDuration(arg)
				if err != nil {
					_, err := r.Reply(ctx, "usage: /tk_slow <duration> <text>")
					return err
				}
				if _, err := r.Reply(ctx, "slow started: "+text); err != nil {
					return err
				}
				select {
				case <-time.After(d):
				case <-ctx.Done():
					return ctx.Err()
				}
				_, err = r.Reply(ctx, "slow: "+text)
				return err
			},
		}},
		Crons: []app.Cron{{
			Name: "testkit_slow", Schedule: "0 0 1 1 *",
			Handler: func(ctx context.Context, _ app.CronRun) error {
				if err := report(ctx, "testkit_slow started"); err != nil {
					return err
				}
				select {
				case <-time.After(dur):
				case <-ctx.Done():
					return ctx.Err()
				}
				n, _ := d.Store.Get(ctx, "runs")
				if err := d.Store.Put(ctx, "runs", append(n, '+')); err != nil {
					return err
				}
				return report(ctx, "testkit_slow finished")
			},
		}},
	}, nil
}
