package webapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/webapp"
	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

const token = "123456:test-token-for-the-mini-app"

var now = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// signed is initData for user, signed with tok at authDate.
func signed(tok string, user int64, authDate time.Time, extra ...string) string {
	vals := url.Values{"auth_date": {strconv.FormatInt(authDate.Unix(), 10)},
		"user": {`{"id":` + strconv.FormatInt(user, 10) + `,"first_name":"U` + strconv.FormatInt(user, 10) + `"}`}}
	for i := 0; i+1 < len(extra); i += 2 {
		vals.Set(extra[i], extra[i+1])
	}
	return initdata.Sign(tok, vals)
}

// echo is a module route that answers who asked.
func echo(module, name string) core.WebRoute {
	return core.WebRoute{Module: module, WebRoute: app.WebRoute{Name: name, Handler: func(_ context.Context, r *app.WebRequest) (any, error) {
		return map[string]any{"user": r.UserID, "module": module, "chat": r.Query.Get("chat"), "start": r.StartParam}, nil
	}}}
}

func failing(module, name string, err error) core.WebRoute {
	return core.WebRoute{Module: module, WebRoute: app.WebRoute{Name: name, Handler: func(context.Context, *app.WebRequest) (any, error) {
		return nil, err
	}}}
}

type fixture struct {
	h    http.Handler
	clk  *clock
	logs *bytes.Buffer
}

func newFixture(t *testing.T, routes ...core.WebRoute) *fixture {
	t.Helper()
	f := &fixture{clk: &clock{t: now}, logs: &bytes.Buffer{}}
	log := slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f.h = webapp.New(webapp.Config{Token: token, Routes: routes, Log: log, Now: f.clk.Now})
	return f
}

func (f *fixture) get(path, auth string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

func TestAPIAnswers401AndNothingElseToARequestTelegramDidNotSign(t *testing.T) {
	good := signed(token, 42, now)
	for _, tc := range []struct{ name, auth string }{
		{"no Authorization header", ""},
		{"another scheme", "Bearer " + good},
		{"tma with nothing", "tma "},
		{"signed with another bot's token", "tma " + signed("654321:other", 42, now)},
		{"altered after signing: another user", "tma " + strings.Replace(good, "%3A42", "%3A43", 1)},
		{"stale: signed more than 24 hours ago", "tma " + signed(token, 42, now.Add(-initdata.MaxAge-time.Minute))},
		{"from the future: signed a year ahead", "tma " + signed(token, 42, now.AddDate(1, 0, 0))},
		{"from the future: signed in the year 2500", "tma " + signed(token, 42, time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC))},
		{"hash removed", "tma " + good[:strings.Index(good, "hash=")] + "x=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, echo("coin", app.WebMe))
			for _, path := range []string{"/app/api/me", "/app/api/coin/me"} {
				w := f.get(path, tc.auth)
				if w.Code != http.StatusUnauthorized || w.Body.Len() != 0 {
					t.Errorf("%s: %d %q, want 401 with no body", path, w.Code, w.Body.String())
				}
			}
			if strings.Contains(f.logs.String(), token) || (len(tc.auth) > 10 && strings.Contains(f.logs.String(), tc.auth[4:])) {
				t.Errorf("the log quotes the token or the initData: %s", f.logs.String())
			}
		})
	}
}

func TestMeHasEveryModulesAnswerForTheSignedUserOnly(t *testing.T) {
	f := newFixture(t, echo("coin", app.WebMe), echo("gold", app.WebMe), echo("gold", "other"))
	w := f.get("/app/api/me", "tma "+signed(token, 42, now.Add(-time.Hour)))
	if w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var me struct {
		User    initdata.User
		Modules map[string]struct {
			User   int64
			Module string
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &me); err != nil {
		t.Fatal(err)
	}
	if me.User.ID != 42 || len(me.Modules) != 2 || me.Modules["coin"].User != 42 || me.Modules["gold"].User != 42 || me.Modules["gold"].Module != "gold" {
		t.Errorf("got %s", w.Body)
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q", got)
	}
}

func TestARouteSeesTheQueryAndTheStartParameter(t *testing.T) {
	f := newFixture(t, echo("coin", "board"))
	w := f.get("/app/api/coin/board?chat=-100", "tma "+signed(token, 7, now, "start_param", "-100"))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"chat":"-100"`) || !strings.Contains(w.Body.String(), `"start":"-100"`) {
		t.Errorf("%d %s", w.Code, w.Body)
	}
}

func TestRouteErrorsAnswerTheirStatusWithNoBody(t *testing.T) {
	f := newFixture(t, failing("coin", "board", app.ErrWebForbidden), failing("coin", "gone", app.ErrWebNotFound),
		failing("coin", "broken", io.ErrUnexpectedEOF))
	auth := "tma " + signed(token, 7, now)
	for path, want := range map[string]int{
		"/app/api/coin/board": http.StatusForbidden, "/app/api/coin/gone": http.StatusNotFound,
		"/app/api/coin/broken": http.StatusInternalServerError, "/app/api/nosuch/me": http.StatusNotFound,
	} {
		if w := f.get(path, auth); w.Code != want || w.Body.Len() != 0 {
			t.Errorf("%s: %d %q, want %d with no body", path, w.Code, w.Body, want)
		}
	}
}

func TestEachUserIsRateLimitedAlone(t *testing.T) {
	f := newFixture(t, echo("coin", app.WebMe))
	alice, bob := "tma "+signed(token, 1, now), "tma "+signed(token, 2, now)
	for i := range webapp.DefaultBurst {
		if w := f.get("/app/api/me", alice); w.Code != http.StatusOK {
			t.Fatalf("request %d: %d", i, w.Code)
		}
	}
	if w := f.get("/app/api/me", alice); w.Code != http.StatusTooManyRequests {
		t.Fatalf("past the burst: %d, want 429", w.Code)
	}
	if w := f.get("/app/api/me", bob); w.Code != http.StatusOK {
		t.Fatalf("another user: %d, want 200", w.Code)
	}
	f.clk.Add(time.Second)
	if w := f.get("/app/api/me", alice); w.Code != http.StatusOK {
		t.Fatalf("a second later: %d, want 200", w.Code)
	}
}

func TestNoTokenMeansNoMiniApp(t *testing.T) {
	h := webapp.New(webapp.Config{Log: slog.New(slog.DiscardHandler)})
	for _, path := range []string{"/app/", "/app/api/me"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, w.Code)
		}
	}
}
