package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// The bot runs on its embedded file, which it holds locked: botctl on the
// same host cannot open it and asks the bot instead, and the owner asks in
// Telegram. Both answers name the file.
func TestTheRunningBotAnswersCronStatusWhileItHoldsTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the container")
	}
	srv := telegramtest.New(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	c := runtimetest.StartContainer(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot", "OWNER_ID": "1",
		"BOLT_PATH": path, "CRON_SHARED_SECRET": cronToken, "TESTKIT_JOB_DURATION": "0s",
	})
	env := map[string]string{"BOLT_PATH": path, "BOT_URL": c.Base, "CRON_SHARED_SECRET": cronToken}
	if out, err := botctl(t, env, "cron", "run", "testkit_slow"); err != nil || out != "cron: ran\n" {
		t.Fatalf("cron run = %q, %v", out, err)
	}

	out, err := botctl(t, env, "cron", "status")
	if err != nil || !strings.HasPrefix(out, "store: bolt file "+path+"\nJOB ") || !strings.Contains(out, "\ntestkit_slow ") {
		t.Fatalf("cron status while the bot holds the file = %q, %v; want the bot's table naming the file", out, err)
	}

	srv.Push(telegramtest.Text(1, 1, "/cron_status"))
	// Other jobs may have run too (a daily job catches up at start).
	want, job := "Cron jobs, from the bolt file "+path+":\n\n", "\ntestkit_slow\nlast success: "
	err = testenv.Eventually(30*time.Second, func() error {
		for _, m := range srv.Messages() {
			if strings.HasPrefix(m.Text, want) && strings.Contains("\n"+m.Text, job) {
				return nil
			}
		}
		return errors.New("no /cron_status answer yet")
	})
	if err != nil {
		t.Fatalf("%v; the owner's /cron_status should start %q and name %q; sent: %v", err, want, job, srv.Messages())
	}
}
