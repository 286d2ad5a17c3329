package main

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

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
	if len(set) != 1 || set[0].Params["secret_token"] != "wh-secret" || !strings.Contains(set[0].Params["allowed_updates"], "callback_query") ||
		!strings.Contains(set[0].Params["allowed_updates"], "inline_query") {
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

func TestMenuSetPointsTheMenuButtonAtTheMiniApp(t *testing.T) {
	srv := telegramtest.New(t)
	env := map[string]string{"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "APP_URL": "https://bot.example.org/app/"}
	for _, tc := range []struct {
		name string
		args []string
		want string // the URL set; "" refused
	}{
		{"APP_URL by default", nil, "https://bot.example.org/app/"},
		{"the URL given", []string{"https://abc.lambda-url.ap-southeast-1.on.aws/app/"}, "https://abc.lambda-url.ap-southeast-1.on.aws/app/"},
		{"plain http is refused", []string{"http://bot.example.org/app/"}, ""},
		{"a URL off /app/ is refused", []string{"https://bot.example.org/"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(srv.Calls("setChatMenuButton"))
			out, err := botctl(t, env, append([]string{"menu", "set"}, tc.args...)...)
			calls := srv.Calls("setChatMenuButton")
			if tc.want == "" {
				if err == nil || len(calls) != before {
					t.Fatalf("= %q, %v after %d calls; want a refusal and no call", out, err, len(calls)-before)
				}
				return
			}
			if err != nil || len(calls) != before+1 || !strings.Contains(calls[len(calls)-1].Params["menu_button"], `"url":"`+tc.want+`"`) {
				t.Fatalf("= %q, %v; calls %+v", out, err, calls)
			}
		})
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
