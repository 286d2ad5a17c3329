package httpapi_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const (
	webhookSecret = "wh-secret"
	cronSecret    = "cron-secret"
)

type fixture struct {
	bot     *apptest.Bot
	h       http.Handler
	jobRuns atomic.Int32
	jobFail atomic.Bool
}

func newFixture(t *testing.T, webhook, cronTok string) *fixture {
	f := &fixture{}
	jobs := app.Factory{Name: "jobs", Jobs: []string{"testjob"}, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "jobs", Crons: []app.Cron{{Name: "testjob", Schedule: "0 1 * * *", Handler: func(context.Context, app.CronRun) error {
			f.jobRuns.Add(1)
			if f.jobFail.Load() {
				return errors.New("job failed")
			}
			return nil
		}}}}, nil
	}}
	f.bot = apptest.New(t, append(builtin.Catalogue(), jobs))
	f.h = httpapi.NewHandler(httpapi.Config{
		Handle: f.bot.App.HandleUpdate, Health: f.bot.App.Health, Dispatcher: f.bot.Dispatcher(time.Now),
		WebhookSecret: webhook, CronSecret: cronTok, Log: f.bot.Log, Store: "memory store (test)",
		Now: func() time.Time { return time.Date(2026, 11, 29, 1, 0, 30, 0, time.UTC) },
	})
	return f
}

func (f *fixture) do(method, path string, headers map[string]string, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	return rec
}

func TestHealth(t *testing.T) {
	f := newFixture(t, webhookSecret, cronSecret)
	rec := f.do("GET", "/", nil, "")
	if rec.Code != 200 || rec.Body.String() != "miti99bot ok\n" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("GET / = %d %q %q", rec.Code, rec.Body, rec.Header().Get("Content-Type"))
	}
	if rec := f.do("GET", "/healthz", nil, ""); rec.Code != 200 {
		t.Fatalf("GET /healthz = %d", rec.Code)
	}
	f.bot.Store.SetDown(true)
	if rec := f.do("GET", "/healthz", nil, ""); rec.Code != 503 {
		t.Fatalf("GET /healthz with the store down = %d, want 503", rec.Code)
	}
	if rec := f.do("GET", "/nope", nil, ""); rec.Code != 404 {
		t.Fatalf("GET /nope = %d", rec.Code)
	}
}

func TestWebhook(t *testing.T) {
	ok := map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret}
	tests := []struct {
		name     string
		secret   string // configured
		headers  map[string]string
		body     string
		want     int
		wantBody string
	}{
		{"no secret configured: no webhook", "", ok, `{}`, 404, ""},
		{"a wrong secret is refused without a body", webhookSecret, map[string]string{"X-Telegram-Bot-Api-Secret-Token": "guess"}, `{}`, 401, "-"},
		{"a missing secret is refused", webhookSecret, nil, `{}`, 401, "-"},
		{"a body over 1 MiB is refused", webhookSecret, ok, `{"x":"` + strings.Repeat("a", httpapi.MaxWebhookBody) + `"}`, 413, ""},
		{"a body that is not JSON is refused", webhookSecret, ok, `{"update_id":`, 400, ""},
		{"a body without an update_id is refused", webhookSecret, ok, `{"message":{"message_id":1,"chat":{"id":3,"type":"private"},"text":"/ping"}}`, 400, ""},
		{"an update is handled", webhookSecret, ok, "", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.secret, cronSecret)
			body := tt.body
			if body == "" {
				body = telegramtest.WebhookBody(t, 1, apptest.PrivateChat, apptest.User, "/ping")
			}
			rec := f.do("POST", "/webhook", tt.headers, body)
			if rec.Code != tt.want {
				t.Fatalf("status = %d, want %d (%s)", rec.Code, tt.want, rec.Body)
			}
			if tt.wantBody == "-" && rec.Body.Len() != 0 {
				t.Fatalf("a refusal must have no body, got %q", rec.Body)
			}
			if tt.want == 200 && f.bot.Last() != "pong" {
				t.Fatalf("replies = %q", f.bot.Replies())
			}
			if tt.want != 200 && len(f.bot.Replies()) != 0 {
				t.Fatalf("a refused request was handled: %q", f.bot.Replies())
			}
		})
	}
}

func TestWebhookAnswers500WhileTheStoreIsDownAndHandlesTheRedelivery(t *testing.T) {
	f := newFixture(t, webhookSecret, cronSecret)
	h := map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret}
	body := telegramtest.WebhookBody(t, 42, apptest.PrivateChat, apptest.User, "/ping")
	f.bot.Store.SetDown(true)
	if rec := f.do("POST", "/webhook", h, body); rec.Code != 500 {
		t.Fatalf("with the store down: %d, want 500 so Telegram redelivers", rec.Code)
	}
	f.bot.Store.SetDown(false)
	for range 2 { // Telegram's redelivery, then a duplicate
		if rec := f.do("POST", "/webhook", h, body); rec.Code != 200 {
			t.Fatalf("redelivery: %d", rec.Code)
		}
	}
	if got := f.bot.Replies(); len(got) != 1 || got[0] != "pong" {
		t.Fatalf("replies = %q, want one pong", got)
	}
}

func TestCronRoute(t *testing.T) {
	tok := map[string]string{"X-Cron-Token": cronSecret}
	t.Run("every request is 404 while the secret is unset", func(t *testing.T) {
		f := newFixture(t, webhookSecret, "")
		for _, m := range []string{"GET", "POST"} {
			if rec := f.do(m, "/cron/testjob", tok, ""); rec.Code != 404 {
				t.Fatalf("%s = %d", m, rec.Code)
			}
		}
	})
	tests := []struct {
		name    string
		method  string
		path    string
		headers map[string]string
		fail    bool
		want    int
		body    string
	}{
		{"a wrong token is refused", "POST", "/cron/testjob", map[string]string{"X-Cron-Token": "guess"}, false, 401, ""},
		{"an unknown job is 404", "POST", "/cron/nosuch", tok, false, 404, ""},
		{"a malformed name is 404", "POST", "/cron/Bad-Name", tok, false, 404, ""},
		{"GET is not allowed", "GET", "/cron/testjob", tok, false, 405, ""},
		{"a failing job is 500", "POST", "/cron/testjob", tok, true, 500, ""},
		{"a job runs", "POST", "/cron/testjob?scheduled=2026-11-29T01:00:00Z", tok, false, 200, "ran\n"},
		{"a bad scheduled time is 400", "POST", "/cron/testjob?scheduled=tomorrow", tok, false, 400, ""},
		{"a slot far in the future is refused", "POST", "/cron/testjob?scheduled=2099-11-29T01:00:00Z", tok, false, 400, ""},
		{"a slot older than a day is refused", "POST", "/cron/testjob?scheduled=2026-11-27T01:00:00Z", tok, false, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, webhookSecret, cronSecret)
			f.jobFail.Store(tt.fail)
			rec := f.do(tt.method, tt.path, tt.headers, "")
			if rec.Code != tt.want || (tt.body != "" && rec.Body.String() != tt.body) {
				t.Fatalf("%s %s = %d %q, want %d %q", tt.method, tt.path, rec.Code, rec.Body, tt.want, tt.body)
			}
		})
	}
	t.Run("the same slot fired twice runs once", func(t *testing.T) {
		f := newFixture(t, webhookSecret, cronSecret)
		// Two fires in the same minute are one slot, whatever their seconds.
		first := f.do("POST", "/cron/testjob?scheduled=2026-11-29T01:00:00Z", tok, "")
		second := f.do("POST", "/cron/testjob?scheduled=2026-11-29T01:00:17Z", tok, "")
		if first.Body.String() != "ran\n" || second.Body.String() != "skipped\n" || f.jobRuns.Load() != 1 {
			t.Fatalf("first %q second %q runs %d", first.Body, second.Body, f.jobRuns.Load())
		}
	})
}

func TestAWebhookUpdateThatOverrunsItsBudgetIsAnswered500AndHandledOnRedelivery(t *testing.T) {
	var slow atomic.Bool
	slow.Store(true)
	mod := app.Factory{Name: "slow", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "slow", Commands: []app.Command{{Name: "work", Description: "Work",
			Handler: func(ctx context.Context, r *app.Request) error {
				if slow.Load() {
					<-ctx.Done() // an API that does not answer within the budget
					return ctx.Err()
				}
				_, err := r.Reply(ctx, "worked")
				return err
			}}}}, nil
	}}
	bot := apptest.New(t, []app.Factory{mod}, core.WithUpdateBudget(300*time.Millisecond)) // room for the redelivery's reply under -race on a loaded machine
	h := httpapi.NewHandler(httpapi.Config{Handle: bot.App.HandleUpdate, Health: bot.App.Health, Dispatcher: bot.Dispatcher(time.Now),
		WebhookSecret: webhookSecret, Log: bot.Log})
	post := func() int {
		req := httptest.NewRequest("POST", "/webhook", strings.NewReader(telegramtest.WebhookBody(t, 77, apptest.PrivateChat, apptest.User, "/work")))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", webhookSecret)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := post(); code != 500 {
		t.Fatalf("an overrun = %d, want 500 so Telegram delivers it again", code)
	}
	slow.Store(false)
	for range 2 { // the redelivery, then a late duplicate
		if code := post(); code != 200 {
			t.Fatalf("redelivery = %d, want 200", code)
		}
	}
	if got := bot.Replies(); len(got) != 1 || got[0] != "worked" {
		t.Fatalf("replies %q, want one", got)
	}
}

func TestTheServerCutsSlowAndIdleClients(t *testing.T) {
	s := httpapi.NewServer(http.NotFoundHandler())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Fatalf("server timeouts %+v: a slow or idle client must be cut off", s)
	}
	if s.WriteTimeout <= core.UpdateBudget {
		t.Fatalf("write timeout %v must outlast an update's budget %v, or a slow update loses its answer", s.WriteTimeout, core.UpdateBudget)
	}
}

func TestAWrongSecretIsRefusedWithoutReadingTheBody(t *testing.T) {
	f := newFixture(t, webhookSecret, cronSecret)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewServer(f.h)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A body of 1 MiB announced, none sent: the answer must not wait for it.
	fmt.Fprintf(conn, "POST /webhook HTTP/1.1\r\nHost: bot\r\nX-Telegram-Bot-Api-Secret-Token: guess\r\nContent-Length: %d\r\n\r\n", 1<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || !resp.Close {
		t.Fatalf("status %d, close %v: want 401 and the connection closed", resp.StatusCode, resp.Close)
	}
}
