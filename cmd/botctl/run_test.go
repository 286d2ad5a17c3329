package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func botctl(t *testing.T, env map[string]string, args ...string) (string, error) {
	var out bytes.Buffer
	err := run(t.Context(), args, func(k string) string { return env[k] }, &out, io.Discard)
	return out.String(), err
}

func TestWebhookAndCommands(t *testing.T) {
	srv := telegramtest.New(t)
	env := map[string]string{"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_WEBHOOK_SECRET": "wh-secret"}
	srv.Push(telegramtest.Text(1, 1, "/ping"), telegramtest.Text(2, 2, "/ping"))

	steps := []struct {
		args []string
		want string
	}{
		{[]string{"webhook", "info"}, "url: (none: the bot is polled)\npending_update_count: 2\n"},
		{[]string{"webhook", "set", "https://abc.lambda-url.ap-southeast-1.on.aws/webhook"}, "webhook set to https://abc.lambda-url.ap-southeast-1.on.aws/webhook\n"},
		{[]string{"webhook", "info"}, "url: https://abc.lambda-url.ap-southeast-1.on.aws/webhook\npending_update_count: 2\n"},
		{[]string{"webhook", "delete"}, "webhook deleted (pending updates kept)\n"},
		{[]string{"webhook", "info"}, "url: (none: the bot is polled)\npending_update_count: 2\n"},
		{[]string{"webhook", "delete", "-drop-pending"}, "webhook deleted (pending updates dropped)\n"},
		{[]string{"webhook", "info"}, "url: (none: the bot is polled)\npending_update_count: 0\n"},
	}
	for _, s := range steps {
		got, err := botctl(t, env, s.args...)
		if err != nil || got != s.want {
			t.Fatalf("botctl %s = %q, %v; want %q", strings.Join(s.args, " "), got, err, s.want)
		}
	}
	set := srv.Calls("setWebhook")
	if len(set) != 1 || set[0].Params["secret_token"] != "wh-secret" || !strings.Contains(set[0].Params["allowed_updates"], "callback_query") {
		t.Fatalf("setWebhook call: %+v", set)
	}

	out, err := botctl(t, env, "commands", "sync")
	if err != nil || !strings.HasPrefix(out, "published ") {
		t.Fatalf("commands sync = %q, %v", out, err)
	}
	var names []string
	for _, c := range srv.Commands() {
		names = append(names, c.Command)
	}
	if !slices.Contains(names, "ping") || slices.Contains(names, "stats") || slices.Contains(names, "info") {
		t.Fatalf("menu %v: public commands only", names)
	}
}

func TestBadInputIsRefusedClearly(t *testing.T) {
	srv := telegramtest.New(t)
	env := map[string]string{"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL}
	for _, args := range [][]string{{}, {"webhook"}, {"webhook", "frobnicate"}, {"webhook", "set"}} {
		if _, err := botctl(t, env, args...); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("botctl %v = %v, want the usage", args, err)
		}
	}
	if _, err := botctl(t, env, "webhook", "set", "http://insecure.example/webhook"); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("an http webhook URL must be refused: %v", err)
	}
	if _, err := botctl(t, env, "webhook", "set", "https://x.example/webhook"); err == nil || !strings.Contains(err.Error(), "TELEGRAM_WEBHOOK_SECRET is required") {
		t.Errorf("webhook set without a secret: %v", err)
	}
}

func TestCronRun(t *testing.T) {
	deployment := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case r.Header.Get("X-Cron-Token") != "cron-secret":
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/cron/lolschedule_daily_push":
			_, _ = io.WriteString(w, "ran\n")
		case r.URL.Path == "/cron/broken":
			http.Error(w, "job failed", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	defer deployment.Close()
	env := map[string]string{"CRON_SHARED_SECRET": "cron-secret", "BOT_URL": deployment.URL}
	tests := []struct {
		name, job, secret, want string
		ok                      bool
	}{
		{"a job runs", "lolschedule_daily_push", "cron-secret", "cron: ran\n", true},
		{"an unknown job", "nosuch", "cron-secret", "404", false},
		{"a failing job", "broken", "cron-secret", "500: job failed", false},
		{"a wrong secret", "lolschedule_daily_push", "guess", "401", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env["CRON_SHARED_SECRET"] = tt.secret
			out, err := botctl(t, env, "cron", "run", tt.job)
			if tt.ok && (err != nil || out != tt.want) || !tt.ok && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("= %q, %v", out, err)
			}
		})
	}
}

func TestCronStatusReadsEachJobsRecordFromTheStore(t *testing.T) {
	p := backendtest.Dynamo(t)
	env := map[string]string{"DYNAMODB_TABLE": p.Table()}
	if out, err := botctl(t, env, "cron", "status"); err != nil || !strings.Contains(out, "no cron job has run") {
		t.Fatalf("cron status on a fresh store = %q, %v", out, err)
	}
	slot := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	st := cron.JobStatus{
		Job: "lolschedule_daily_push", Attempts: 3, NextFire: slot.Add(24 * time.Hour),
		LastSuccess: &cron.RunInfo{Slot: slot, At: slot.Add(3 * time.Minute)},
		LastFailure: &cron.RunInfo{Slot: slot, At: slot.Add(time.Minute), Error: "esports API: 503"},
	}
	if err := p.For(core.CoreNamespace).PutJSON(t.Context(), "cronjob:lolschedule_daily_push", st); err != nil {
		t.Fatal(err)
	}
	out, err := botctl(t, env, "cron", "status")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lolschedule_daily_push", "2026-11-29T01:00:00Z (esports API: 503)", "2026-11-30T01:00:00Z", " 3 "} {
		if !strings.Contains(out, want) {
			t.Fatalf("cron status lacks %q:\n%s", want, out)
		}
	}
}
