package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// cronClient posts manual runs. It follows no redirect: Go would carry
// X-Cron-Token to wherever one points (it strips only its own sensitive
// headers), and a 301 or 302 turns the POST into a GET that runs nothing.
var cronClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func cronRun(ctx context.Context, e env) error {
	fs := e.flags()
	base := fs.String("url", "", "the deployment's base URL: https, or http on loopback (default $BOT_URL)")
	scheduled := fs.String("scheduled", "", "the slot to run, RFC 3339 (a slot missed within the last day); default: now")
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
	target, err := cronURL(*base, args[0])
	if err != nil {
		return err
	}
	if *scheduled != "" {
		// A slot a pause or an outage held: its run claims that slot, so
		// it runs once whoever else fires it, and a daily job does that
		// day's work, not today's.
		if _, err := time.Parse(time.RFC3339, *scheduled); err != nil {
			return fmt.Errorf("cron run: -scheduled %q is not RFC 3339 (2027-01-05T01:00:00Z)", *scheduled)
		}
		target += "?scheduled=" + url.QueryEscape(*scheduled)
	}
	cfg, err := wiring.LoadConfig(ctx, e.getenv, defaultchain.Load, "CRON_SHARED_SECRET")
	if err != nil {
		return err
	}
	return postCron(ctx, target, cfg.CronSecret.Reveal(), e.stdout)
}

// cronURL is <base>/cron/<name>. The request carries CRON_SHARED_SECRET, so
// base must be https, or plain http only to this machine.
func cronURL(base, name string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("cron: %q is not a URL", base)
	}
	ip := net.ParseIP(u.Hostname())
	loopback := u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()
	if u.Scheme != "https" && !(u.Scheme == "http" && loopback) {
		return "", fmt.Errorf("cron: %s must be https (plain http only on loopback): the request carries CRON_SHARED_SECRET", u.Redacted())
	}
	return strings.TrimRight(base, "/") + "/cron/" + url.PathEscape(name), nil
}

func postCron(ctx context.Context, target, token string, stdout io.Writer) error {
	// The answer comes when the run ends: up to the longest a job may take.
	ctx, cancel := context.WithTimeout(ctx, app.MaxCronTimeout+time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, nil)
	if err != nil {
		return fmt.Errorf("cron: %w", err)
	}
	req.Header.Set("X-Cron-Token", token)
	resp, err := cronClient.Do(req)
	if err != nil {
		return fmt.Errorf("cron: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	text := strings.TrimSpace(string(body))
	switch code := resp.StatusCode; {
	case code == http.StatusOK:
		// Only the route's outcomes count: a 200 from anything else (a
		// login page, a parked domain) ran no job.
		if note, ok := outcomes[cron.Outcome(text)]; ok {
			fmt.Fprintf(stdout, "cron: %s%s\n", text, note)
			return nil
		}
		return fmt.Errorf("cron: 200 answering %q, not an outcome of the bot's /cron route: is the URL the bot's deployment?", clip(text))
	}
	return refusal("cron", resp, text, "no such job, or the deployment has no CRON_SHARED_SECRET")
}

// refusal explains an answer of the deployment's cron routes other than
// 200, for what (the command); notFound is what a 404 means there.
func refusal(what string, resp *http.Response, text, notFound string) error {
	switch code := resp.StatusCode; {
	case code >= 300 && code < 400:
		return fmt.Errorf("%s: %d: the deployment redirects to %q; not followed, the token stays here: give botctl the final URL", what, code, clip(resp.Header.Get("Location")))
	case code == http.StatusNotFound:
		return fmt.Errorf("%s: 404: %s", what, notFound)
	case code == http.StatusUnauthorized:
		return fmt.Errorf("%s: 401: CRON_SHARED_SECRET does not match the deployment's", what)
	}
	return fmt.Errorf("%s: %d: %s", what, resp.StatusCode, clip(text))
}

// outcomes are what the route answers with 200 (cron.Dispatch's outcomes),
// each with what it tells the operator.
var outcomes = map[cron.Outcome]string{
	cron.Ran:      "",
	cron.Skipped:  " (another fire runs or ran this slot)",
	cron.Disabled: " (the job's module is not enabled: nothing ran)",
}

// clip bounds a server's text quoted in an error.
func clip(s string) string {
	if len(s) > 200 {
		return strings.ToValidUTF8(s[:200], "") + "..."
	}
	return s
}
