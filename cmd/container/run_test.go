package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// consoleArgs runs the console with its logs in the test's directory.
func consoleArgs(t *testing.T) []string {
	return []string{"-console", "-log", filepath.Join(t.TempDir(), "console.log")}
}

// The console's logs go to a file (a new one by default) or to stderr,
// never among the conversation on stdout, and the console says where once,
// at the start.
func TestTheConsolesLogsGoApartAndItSaysWhere(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bot.log")
	tests := []struct {
		name      string
		log       string // -log
		says      string // the start's line
		logsOnErr bool   // the logs are on stderr, else in the file said
	}{
		{"a named file", file, "Logs go to " + file + ".\n", false},
		{"stderr when asked", "-", "Logs go to stderr.\n", true},
		{"a new file by default", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"-console", "-log", tt.log}
			if tt.log == "" {
				t.Setenv("TMPDIR", t.TempDir()) // where os.CreateTemp puts it
				args = args[:1]
			}
			saved := consoleInput
			consoleInput = strings.NewReader("/ping\n")
			t.Cleanup(func() { consoleInput = saved })
			var out, errOut bytes.Buffer
			if err := run(t.Context(), args, envOf(nil), &out, &errOut); err != nil {
				t.Fatalf("run: %v\n%s", err, errOut.String())
			}
			if tt.log == "" {
				made, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "miti99bot-console-*.log"))
				if len(made) != 1 {
					t.Fatalf("log files made: %q; want one", made)
				}
				tt.log, tt.says = made[0], "Logs go to "+made[0]+".\n"
			}
			if strings.Count(out.String(), "Logs go to") != 1 || !strings.Contains(out.String(), "\n"+tt.says) {
				t.Fatalf("stdout does not say %q once:\n%s", tt.says, out.String())
			}
			if strings.Contains(out.String(), `"level"`) {
				t.Fatalf("logs among the conversation:\n%s", out.String())
			}
			logs := errOut.String()
			if !tt.logsOnErr {
				b, err := os.ReadFile(tt.log)
				if err != nil {
					t.Fatal(err)
				}
				logs = string(b)
				if errOut.Len() != 0 {
					t.Fatalf("stderr holds %q; the logs go to the file", errOut.String())
				}
			}
			if !strings.Contains(logs, `"msg":"starting"`) {
				t.Fatalf("the logs lack the start:\n%s", logs)
			}
		})
	}
}

func TestConsoleChatsOnTheTerminal(t *testing.T) {
	saved := consoleInput
	consoleInput = strings.NewReader("/ping\n\n/info\n/nope\n")
	t.Cleanup(func() { consoleInput = saved })
	var out, errOut bytes.Buffer
	if err := run(t.Context(), consoleArgs(t), envOf(nil), &out, &errOut); err != nil {
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
	if err := run(t.Context(), consoleArgs(t), envOf(nil), &out, &errOut); err != nil {
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
	if err := run(t.Context(), consoleArgs(t), envOf(nil), &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"Cron jobs, from the memory store", "bot> lolschedule_daily_push\n", "bot> coin_values\n", "bot> next fire: 20"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("/cron_status lacks %q:\n%s", want, out.String())
		}
	}
}

// -lang vi is a console user whose Telegram client is set to Vietnamese:
// the bot answers in Vietnamese, and in English without it.
func TestTheConsoleSpeaksTheLanguageItIsGiven(t *testing.T) {
	for _, tt := range []struct{ lang, want string }{
		{"vi", "Mình không biết lệnh này."},
		{"", "Unknown command."},
	} {
		t.Run("lang "+tt.lang, func(t *testing.T) {
			saved := consoleInput
			consoleInput = strings.NewReader("/nosuchcommand\n")
			t.Cleanup(func() { consoleInput = saved })
			args := consoleArgs(t)
			if tt.lang != "" {
				args = append(args, "-lang", tt.lang)
			}
			var out bytes.Buffer
			if err := run(t.Context(), args, envOf(nil), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "bot> "+tt.want) {
				t.Fatalf("the console with -lang %q printed:\n%s", tt.lang, out.String())
			}
		})
	}
}
