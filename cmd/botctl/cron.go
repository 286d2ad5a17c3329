package main

import (
	"context"
	"errors"
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
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

func cronRun(ctx context.Context, e env) error {
	fs := e.flags()
	base := fs.String("url", "", "the deployment's base URL (default $BOT_URL)")
	args, err := e.positional(fs, 1)
	if err != nil {
		return err
	}
	if *base == "" {
		*base = e.getenv("BOT_URL")
	}
	if *base == "" {
		return errors.New("cron run needs -url (or BOT_URL): the deployment's base URL")
	}
	cfg, err := wiring.LoadConfig(ctx, e.getenv, shared.Load, "CRON_SHARED_SECRET")
	if err != nil {
		return err
	}
	return postCron(ctx, strings.TrimRight(*base, "/")+"/cron/"+url.PathEscape(args[0]), cfg.CronSecret.Reveal(), e.stdout)
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
	if _, err := e.positional(e.flags(), 0); err != nil {
		return err
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
	statuses, err := cron.Statuses(ctx, store.For(app.CoreNamespace))
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
