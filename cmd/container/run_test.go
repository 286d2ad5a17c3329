package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConsoleChatsOnTheTerminal(t *testing.T) {
	saved := consoleInput
	consoleInput = strings.NewReader("/ping\n\n/info\n/nope\n")
	t.Cleanup(func() { consoleInput = saved })
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"-console"}, envOf(nil), &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	got := out.String()
	for _, want := range []string{"bot> pong", "bot> chat_id: 1", "bot> Unknown command"} {
		if !strings.Contains(got, want) {
			t.Errorf("console output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"level"`) {
		t.Errorf("logs went to the chat's stdout:\n%s", got)
	}
}

func TestStartUpFailsOnBadConfiguration(t *testing.T) {
	err := run(t.Context(), nil, envOf(map[string]string{"OWNER_ID": "me"}), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "TELEGRAM_BOT_TOKEN is required") || !strings.Contains(err.Error(), "OWNER_ID") {
		t.Fatalf("run = %v", err)
	}
}

func TestPollingServesUpdatesHTTPAndStopsOnCancel(t *testing.T) {
	srv := telegramtest.New(t)
	port := strings.TrimPrefix(testenv.FreePort(t), "127.0.0.1:")
	env := envOf(map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "PORT": port, "LOG_LEVEL": "warn",
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, env, io.Discard, io.Discard) }()

	if _, err := srv.WaitCalls(t.Context(), "getUpdates", 1); err != nil {
		t.Fatal(err)
	}
	srv.Push(telegramtest.Text(5, 5, "/ping"))
	if _, err := srv.WaitCalls(t.Context(), "sendMessage", 1); err != nil {
		t.Fatal(err)
	}
	if m := srv.Messages(); m[0].Text != "pong" || m[0].ChatID != 5 {
		t.Fatalf("sent %+v", m)
	}
	resp, err := http.Get("http://127.0.0.1:" + port + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "miti99bot ok\n" {
		t.Fatalf("GET / = %q", body)
	}
	if err := run(t.Context(), []string{"-healthcheck"}, envOf(map[string]string{"PORT": port}), io.Discard, io.Discard); err != nil {
		t.Fatalf("-healthcheck on a healthy bot: %v", err)
	}
	if len(srv.Commands()) == 0 {
		t.Fatal("start-up should publish the command menu")
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run after cancel: %v", err)
	}
	if err := run(t.Context(), []string{"-healthcheck"}, envOf(map[string]string{"PORT": port}), io.Discard, io.Discard); err == nil {
		t.Fatal("-healthcheck passed with the bot stopped")
	}
}

// Buttons print as a numbered list, and typing a number presses one: the
// console plays a button flow as a chat would.
func TestConsoleButtonsAreANumberedListYouType(t *testing.T) {
	saved := consoleInput
	consoleInput = strings.NewReader("/wordle\n1\n1\n")
	t.Cleanup(func() { consoleInput = saved })
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"-console"}, envOf(nil), &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"     [1] 🏳 Give up\n",
		"bot (edits message 1)> Give up this Wordle?",
		"     [1] Yes, give up  [2] No, keep playing\n",
		"bot (edits message 1)> The word was ",
		"     [1] 🔄 New game\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("console output lacks %q:\n%s", want, got)
		}
	}
}

// The owner's /cron_status lists every enabled job from the first start,
// each with its next fire: a fresh deploy shows its daily push.
func TestCronStatusListsTheJobsOfAFreshStart(t *testing.T) {
	saved := consoleInput
	consoleInput = strings.NewReader("/cron_status\n")
	t.Cleanup(func() { consoleInput = saved })
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"-console"}, envOf(nil), &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"Cron jobs, from the memory store", "bot> lolschedule_daily_push\n", "bot> coin_values\n", "bot> next fire: 20"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("/cron_status lacks %q:\n%s", want, out.String())
		}
	}
}
