package telegram_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// waits records the retry_after waits instead of sleeping through them.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) wait(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return nil
}

// newClient is a client of srv whose waits are recorded, not slept. Its
// rates are unlimited, so the waits are Telegram's retry_afters and groups'
// windows only (pacing_test.go tests the rates).
func newClient(t *testing.T, srv *telegramtest.Server, opts ...telegram.Option) (*telegram.Client, *waits) {
	t.Helper()
	w := &waits{}
	base := []telegram.Option{telegram.WithAPIURL(srv.URL), telegram.WithWait(w.wait), telegram.WithRates(rate.Inf, rate.Inf)}
	c, err := telegram.New(srv.Token, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c, w
}

func TestSendDeliversTheMessageToItsChatAndTopic(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	msg, err := c.Send(t.Context(), app.Message{ChatID: -100, ThreadID: 7, Text: "hello <b>x</b>", ParseMode: "HTML"})
	if err != nil {
		t.Fatal(err)
	}
	if msg.ID == 0 || msg.Chat.ID != -100 {
		t.Fatalf("returned message = %+v", msg)
	}
	got := srv.Messages()
	if len(got) != 1 || got[0].ChatID != -100 || got[0].ThreadID != 7 || got[0].Text != "hello <b>x</b>" || got[0].ParseMode != "HTML" {
		t.Fatalf("server saw %+v", got)
	}
}

func TestRetryAfterIsHonouredWithinTheBudget(t *testing.T) {
	srv := telegramtest.New(t)
	srv.FailNext("sendMessage", telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 3", RetryAfter: 3})
	c, w := newClient(t, srv)
	if _, err := c.Send(t.Context(), app.Message{ChatID: 1, Text: "x"}); err != nil {
		t.Fatalf("Send after one 429: %v", err)
	}
	if len(w.d) != 1 || w.d[0] != 3*time.Second {
		t.Fatalf("waited %v, want exactly the 3 s Telegram asked for", w.d)
	}
	if n := len(srv.Calls("sendMessage")); n != 2 {
		t.Fatalf("%d sendMessage calls, want the failed one and its retry", n)
	}
}

func TestRetryAfterBeyondTheBudgetFailsWithErrFlood(t *testing.T) {
	srv := telegramtest.New(t)
	srv.FailNext("sendMessage",
		telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 20", RetryAfter: 20},
		telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 20", RetryAfter: 20})
	c, w := newClient(t, srv, telegram.WithRetryBudget(30*time.Second))
	_, err := c.Send(t.Context(), app.Message{ChatID: 1, Text: "x"})
	if !errors.Is(err, app.ErrFlood) {
		t.Fatalf("Send = %v, want ErrFlood", err)
	}
	if len(w.d) != 1 {
		t.Fatalf("waited %v; the second wait would pass the budget and must not start", w.d)
	}
}

func TestTheTokenNeverAppearsInErrors(t *testing.T) {
	srv := telegramtest.New(t)
	const wrong = "999:WRONG-secret-token"
	c, err := telegram.New(wrong, telegram.WithAPIURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Send(t.Context(), app.Message{ChatID: 1, Text: "x"})
	if !errors.Is(err, telegram.ErrUnauthorized) || strings.Contains(err.Error(), wrong) {
		t.Fatalf("Send with a wrong token = %v", err)
	}
	_, err = c.GetUpdates(t.Context(), 0, 0)
	if !errors.Is(err, telegram.ErrUnauthorized) || strings.Contains(err.Error(), wrong) {
		t.Fatalf("GetUpdates with a wrong token = %v", err)
	}
	// A network error carries the URL, which holds the token.
	dead, _ := telegram.New(wrong, telegram.WithAPIURL("http://127.0.0.1:1"))
	for name, err := range map[string]error{
		"send":       func() error { _, err := dead.Send(t.Context(), app.Message{ChatID: 1, Text: "x"}); return err }(),
		"getUpdates": func() error { _, err := dead.GetUpdates(t.Context(), 0, 0); return err }(),
	} {
		if err == nil || strings.Contains(err.Error(), wrong) {
			t.Errorf("%s on a dead server = %v", name, err)
		}
	}
}

func TestGetUpdatesConfirmsByOffsetAndReportsConflicts(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	ctx := t.Context()
	ids := srv.Push(telegramtest.Text(1, 1, "/ping"), telegramtest.Text(2, 2, "/ping"))

	got, err := c.GetUpdates(ctx, 0, 0)
	if err != nil || len(got) != 2 || got[0].ID != ids[0] || got[0].Message.Text != "/ping" {
		t.Fatalf("GetUpdates = %v, %v", got, err)
	}
	if srv.Pending() != 2 {
		t.Fatal("updates must stay pending until an offset confirms them")
	}
	if got, err = c.GetUpdates(ctx, ids[1]+1, 0); err != nil || len(got) != 0 || srv.Pending() != 0 {
		t.Fatalf("after confirming: %v, %v, pending %d", got, err, srv.Pending())
	}

	srv.SetWebhookState("https://example.invalid/webhook")
	if _, err := c.GetUpdates(ctx, 0, 0); !errors.Is(err, telegram.ErrConflict) {
		t.Fatalf("GetUpdates with a webhook set = %v, want ErrConflict", err)
	}
	if err := c.DeleteWebhook(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetUpdates(ctx, 0, 0); err != nil {
		t.Fatalf("GetUpdates after deleteWebhook: %v", err)
	}
}

func TestGetUpdatesLongPollsUntilAnUpdateArrives(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	done := make(chan int, 1)
	go func() {
		got, err := c.GetUpdates(t.Context(), 0, 30*time.Second)
		if err != nil {
			t.Error(err)
		}
		done <- len(got)
	}()
	if _, err := srv.WaitCalls(t.Context(), "getUpdates", 1); err != nil {
		t.Fatal(err)
	}
	srv.Push(telegramtest.Text(1, 1, "hi"))
	if n := <-done; n != 1 {
		t.Fatalf("long poll returned %d updates", n)
	}
}

func TestAMessageOverTelegramsLimitIsCutNotSentAsIs(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	if _, err := c.Send(t.Context(), app.Message{ChatID: 1, Text: strings.Repeat("é", 5000)}); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()[0].Text
	if n := len([]rune(got)); n != app.MaxMessageUnits || !strings.HasSuffix(got, "…") {
		t.Fatalf("sent %d characters, want %d ending in an ellipsis", n, app.MaxMessageUnits)
	}
}
