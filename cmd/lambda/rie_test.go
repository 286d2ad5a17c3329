package main

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics/emf/emftest"
	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const (
	webhookSecret = "wh-secret-value"
	cronSecret    = "cron-secret-value"
)

// TestTheBootstrapUnderTheRuntimeInterfaceEmulator drives the real binary the
// way Lambda does, one invocation at a time (the emulator cannot take two).
func TestTheBootstrapUnderTheRuntimeInterfaceEmulator(t *testing.T) {
	store := runtimetest.Dynalite(t, "bot")
	srv := telegramtest.New(t)
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret, "CRON_SHARED_SECRET": cronSecret,
		"OWNER_ID": "1", "TESTKIT_JOB_DURATION": "10ms",
	}
	maps.Copy(env, store.Env)
	rie := runtimetest.StartRIE(t, runtimetest.Build(t, "./cmd/lambda", "lambda.norpc"), env)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	hook := map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret, "Content-Type": "application/json"}
	// A manual fire names a slot of the last day: this minute.
	slot := time.Now().UTC().Truncate(time.Minute).Format(time.RFC3339)

	steps := []struct {
		name     string
		method   string
		path     string
		headers  map[string]string
		body     string
		want     int
		wantBody string
	}{
		{"health", "GET", "/", nil, "", 200, "miti99bot ok\n"},
		{"store health", "GET", "/healthz", nil, "", 200, "ok\n"},
		{"a webhook update is handled", "POST", "/webhook", hook, telegramtest.WebhookBody(t, 1, 7, 7, "/ping"), 200, ""},
		{"a wrong webhook secret", "POST", "/webhook", map[string]string{"X-Telegram-Bot-Api-Secret-Token": "guess"}, telegramtest.WebhookBody(t, 2, 7, 7, "/ping"), 401, ""},
		{"an oversize body", "POST", "/webhook", hook, `{"x":"` + strings.Repeat("a", 1<<20) + `"}`, 413, ""},
		{"bad JSON", "POST", "/webhook", hook, `{"update_id":`, 400, ""},
		{"a cron job by URL", "POST", "/cron/testkit_slow?scheduled=" + slot, map[string]string{"X-Cron-Token": cronSecret}, "", 200, "ran\n"},
		{"the same slot again", "POST", "/cron/testkit_slow?scheduled=" + slot, map[string]string{"X-Cron-Token": cronSecret}, "", 200, "skipped\n"},
		{"a slot far in the future is refused", "POST", "/cron/testkit_slow?scheduled=2099-01-01T01:00:00Z", map[string]string{"X-Cron-Token": cronSecret}, "", 400, ""},
		{"a wrong cron token", "POST", "/cron/testkit_slow", map[string]string{"X-Cron-Token": "guess"}, "", 401, ""},
	}
	for _, s := range steps {
		res, err := rie.InvokeURL(ctx, s.method, s.path, s.headers, s.body)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.StatusCode != s.want || (s.wantBody != "" && res.Body != s.wantBody) {
			t.Fatalf("%s: %d %q, want %d %q", s.name, res.StatusCode, res.Body, s.want, s.wantBody)
		}
	}
	if got := srv.Messages(); len(got) == 0 || got[0].Text != "pong" || got[0].ChatID != 7 {
		t.Fatalf("webhook reply: %+v", got)
	}

	t.Run("a scheduler event runs its job through the slot claim", func(t *testing.T) {
		ev := map[string]string{"cron": "testkit_slow", "scheduledTime": "2026-11-30T01:00:00Z"}
		for _, want := range []string{"ran", "skipped"} { // then Scheduler's retry of a slot that already ran
			if out, err := rie.Invoke(ctx, ev); err != nil || !strings.Contains(string(out), `"outcome":"`+want+`"`) {
				t.Fatalf("scheduler event: %s, %v; want %s", out, err, want)
			}
		}
		if out, _ := rie.Invoke(ctx, map[string]string{"cron": "nosuch", "scheduledTime": "2026-11-30T01:00:00Z"}); !strings.Contains(string(out), "unknown job") {
			t.Fatalf("an unknown job must fail the invocation: %s", out)
		}
		var finished int
		for _, m := range srv.Messages() {
			if m.Text == "testkit_slow finished" {
				finished++
			}
		}
		if finished != 2 { // the URL-fired slot and this one, each once
			t.Fatalf("job finished %d times, want 2", finished)
		}
	})

	t.Run("storage down answers 500, the redelivery succeeds", func(t *testing.T) {
		before := len(srv.Messages())
		store.Stop()
		res, err := rie.InvokeURL(ctx, "POST", "/webhook", hook, telegramtest.WebhookBody(t, 50, 7, 7, "/ping"))
		if err != nil || res.StatusCode != 500 {
			t.Fatalf("with the store down: %d, %v; want 500 so Telegram redelivers", res.StatusCode, err)
		}
		store.Restart()
		res, err = rie.InvokeURL(ctx, "POST", "/webhook", hook, telegramtest.WebhookBody(t, 50, 7, 7, "/ping"))
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("redelivery: %d, %v", res.StatusCode, err)
		}
		if got := srv.Messages()[before:]; len(got) != 1 || got[0].Text != "pong" {
			t.Fatalf("replies after the outage: %+v", got)
		}
	})

	t.Run("each invocation's metrics are CloudWatch EMF lines", func(t *testing.T) {
		sums := map[string]float64{}
		lines := 0
		for line := range strings.Lines(rie.Output()) {
			if !strings.Contains(line, `"_aws"`) {
				continue
			}
			lines++
			values, err := emftest.Check([]byte(line))
			if err != nil {
				t.Fatalf("not an EMF document (%v): %s", err, line)
			}
			for name, vs := range values {
				for _, v := range vs {
					sums[name] += v
				}
			}
		}
		if lines == 0 {
			t.Fatal("no EMF line in the bootstrap's output")
		}
		for _, name := range []string{
			"updates.message.handled", "botapi_calls.sendMessage.ok", "store_operations.dynamodb.cas.ok",
			"store_operations.dynamodb.cas.error", "updates.message.failed", "cron_runs.testkit_slow.ran", "cron_runs.testkit_slow.skipped",
			"cron_runs.unknown.failed", "init_duration_seconds",
		} {
			if sums[name] <= 0 {
				t.Errorf("no %s in the EMF lines (have %v)", name, sums)
			}
		}
	})
}

// TestAScheduleWhoseModuleIsDisabledIsASkip: the template creates the
// lolschedule schedule whatever MODULES says; its fires must not fail,
// retry and dead-letter every day.
func TestAScheduleWhoseModuleIsDisabledIsASkip(t *testing.T) {
	store := runtimetest.Dynalite(t, "bot")
	srv := telegramtest.New(t)
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret, "MODULES": "util,misc",
	}
	maps.Copy(env, store.Env)
	rie := runtimetest.StartRIE(t, runtimetest.Build(t, "./cmd/lambda", "lambda.norpc"), env)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	out, err := rie.Invoke(ctx, map[string]string{"cron": "lolschedule_daily_push", "scheduledTime": "2026-11-30T01:00:00Z"})
	if err != nil || !strings.Contains(string(out), `"outcome":"disabled"`) {
		t.Fatalf("a fire for the disabled lolschedule: %s, %v; want success, disabled", out, err)
	}
	if out, _ := rie.Invoke(ctx, map[string]string{"cron": "nosuch", "scheduledTime": "2026-11-30T01:00:00Z"}); !strings.Contains(string(out), "unknown job") {
		t.Fatalf("a job no module has must still fail the invocation: %s", out)
	}
}

// The bootstrap opens DynamoDB without a table check (it would delay every
// cold start by a round trip): with a wrong DYNAMODB_TABLE it starts, and
// the health check and the first update fail instead, unacknowledged, so
// Telegram redelivers once the table is fixed.
func TestAWrongTableFailsTheHealthCheckAndTheUpdateNotTheStart(t *testing.T) {
	store := runtimetest.Dynalite(t, "bot")
	srv := telegramtest.New(t)
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret,
	}
	maps.Copy(env, store.Env)
	env["DYNAMODB_TABLE"] = "no-such-table"
	rie := runtimetest.StartRIE(t, runtimetest.Build(t, "./cmd/lambda", "lambda.norpc"), env)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	hook := map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret, "Content-Type": "application/json"}
	for _, s := range []struct {
		name, method, path string
		headers            map[string]string
		body               string
		want               int
	}{
		{"it starts", "GET", "/", nil, "", 200},
		{"the health check fails", "GET", "/healthz", nil, "", 503},
		{"an update is not acknowledged", "POST", "/webhook", hook, telegramtest.WebhookBody(t, 1, 7, 7, "/ping"), 500},
	} {
		res, err := rie.InvokeURL(ctx, s.method, s.path, s.headers, s.body)
		if err != nil || res.StatusCode != s.want {
			t.Fatalf("%s: %d %q, %v; want %d", s.name, res.StatusCode, res.Body, err, s.want)
		}
	}
	if !strings.Contains(rie.Output(), `table \"no-such-table\" not found`) {
		t.Errorf("no log line names the missing table:\n%s", rie.Output())
	}
	if got := srv.Messages(); len(got) != 0 {
		t.Errorf("replies with no table: %+v", got)
	}
}
