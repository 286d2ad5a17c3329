package poller_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func noop(context.Context, *models.Update) error { return nil }

func TestHealthFailsAtOnceWhenTelegramRejectsTheToken(t *testing.T) {
	srv := telegramtest.New(t)
	revoked, err := telegram.New("123456:revoked", telegram.WithAPIURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	p := poller.New(revoked, store(), noop, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait))
	start(t, p)
	err = testenv.Eventually(10*time.Second, func() error {
		if err := p.Health(t.Context()); err == nil || !strings.Contains(err.Error(), "rejects the bot token") {
			return fmt.Errorf("health = %v, want the token rejected", err)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("health with a revoked token: %v", err)
	}
	if h := p.Health(t.Context()).Error(); strings.Contains(h, "revoked") || strings.Contains(h, "123456") {
		t.Fatalf("the health reason shows the token: %q", h)
	}
}

func TestHealthFailsWhenPollingNeverStartsOrStalls(t *testing.T) {
	srv := telegramtest.New(t)
	clk := apptest.NewClock(apptest.T0)
	w := newWaits()
	srv.FailNext("deleteWebhook", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
	p := poller.New(client(t, srv), store(), noop, poller.WithLongPoll(time.Second), poller.WithWait(w.wait), poller.WithClock(clk.Now))
	if err := p.Health(t.Context()); err != nil {
		t.Fatalf("health while starting: %v", err)
	}
	block := make(chan struct{})
	stallingWait := func(ctx context.Context, d time.Duration) error {
		select { // hold the poller in its back-off until the test looks
		case <-block:
		case <-ctx.Done():
		}
		return ctx.Err()
	}
	p = poller.New(client(t, srv), store(), noop, poller.WithLongPoll(time.Second), poller.WithWait(stallingWait), poller.WithClock(clk.Now))
	start(t, p)
	if _, err := srv.WaitCalls(t.Context(), "deleteWebhook", 1); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Minute) // many long-poll periods without a start
	err := testenv.Eventually(10*time.Second, func() error {
		if err := p.Health(t.Context()); err == nil || !strings.Contains(err.Error(), "polling: not started after 1m0s (Telegram") {
			return fmt.Errorf("health when deleteWebhook keeps failing = %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	close(block)
	err = testenv.Eventually(10*time.Second, func() error { return p.Health(t.Context()) })
	if err != nil {
		t.Fatalf("health once polling runs: %v", err)
	}
}

func TestHealthFailsWhenTheOldestHeldUpdateMakesNoProgress(t *testing.T) {
	srv := telegramtest.New(t)
	clk := apptest.NewClock(apptest.T0)
	h := newHandled(1)
	p := poller.New(client(t, srv), store(), h.handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
		poller.WithClock(clk.Now), poller.WithStuckAfter(time.Minute))
	start(t, p)
	srv.Push(telegramtest.Text(1, 1, "stuck"), telegramtest.Text(2, 2, "fine"))
	h.waitFor(t, 2, 1)
	if err := p.Health(t.Context()); err != nil {
		t.Fatalf("health right away: %v", err)
	}
	clk.Add(90 * time.Second)
	if err := p.Health(t.Context()); err == nil || !strings.Contains(err.Error(), "no progress on the oldest held update for 1m30s") {
		t.Fatalf("health with the oldest update stuck = %v", err)
	}
	h.open(1)
	h.waitFor(t, 1, 1)
	if err := testenv.Eventually(10*time.Second, func() error { return p.Health(t.Context()) }); err != nil {
		t.Fatalf("health once it moved: %v", err)
	}
}

// A 401 stops the bot until an operator acts, so it is an error, not a
// warning like a 500; it names the token as rejected, never the token.
func TestAGetUpdatesRefusalOfTheTokenIsLoggedAsAnError(t *testing.T) {
	tests := []struct {
		name      string
		failure   telegramtest.Failure
		wantLevel string
		wantMsg   string
	}{
		{"a 401 is an error naming the token as rejected", telegramtest.Failure{Code: 401, Description: "Unauthorized"},
			"ERROR", "Telegram rejects the bot token"},
		{"a 500 is a warning", telegramtest.Failure{Code: 500, Description: "Internal Server Error"},
			"WARN", "getUpdates failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			srv.FailNext("getUpdates", tt.failure)
			logs := &testenv.Buffer{}
			p := poller.New(client(t, srv), store(), noop, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
				poller.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
			start(t, p)
			err := testenv.Eventually(10*time.Second, func() error {
				for line := range strings.Lines(logs.String()) {
					if strings.Contains(line, tt.wantMsg) {
						if !strings.Contains(line, `"level":"`+tt.wantLevel+`"`) {
							return fmt.Errorf("logged %s", line)
						}
						return nil
					}
				}
				return fmt.Errorf("no %q in the logs:\n%s", tt.wantMsg, logs.String())
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(logs.String(), srv.Token) || strings.Contains(logs.String(), "TEST-token") {
				t.Fatalf("the logs show the token:\n%s", logs.String())
			}
		})
	}
}
