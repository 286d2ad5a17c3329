package webapp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/webapp"
)

// langOf is a route that answers the language it was asked in.
func langOf(module, name string) core.WebRoute {
	return core.WebRoute{Module: module, WebRoute: app.WebRoute{Name: name, Handler: func(_ context.Context, r *app.WebRequest) (any, error) {
		return map[string]any{"lang": r.Lang}, nil
	}}}
}

// The page and every route speak the viewer's language: their own choice
// for their private chat (the engine's rule, Config.Lang), else their
// client's language_code, else English.
func TestEveryAnswerIsInTheViewersLanguage(t *testing.T) {
	const chose = 7 // chose Vietnamese with /language, their client in English
	var asked []string
	choice := func(_ context.Context, user int64, client string) locale.Lang {
		asked = append(asked, client)
		if user == chose {
			return locale.Vietnamese
		}
		return locale.FromTelegram(client)
	}
	for _, tt := range []struct {
		name   string
		user   int64
		client string
		want   locale.Lang
		marks  [2]string
	}{
		{"a Vietnamese client", 42, "vi", locale.Vietnamese, [2]string{",", "."}},
		{"a stored choice over the client's", chose, "en", locale.Vietnamese, [2]string{",", "."}},
		{"an English client", 42, "en", locale.English, [2]string{".", ","}},
		{"a client of a language the bot does not speak", 42, "fr", locale.English, [2]string{".", ","}},
		{"no language_code", 42, "", locale.English, [2]string{".", ","}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fixture{clk: &clock{t: now}}
			f.h = webapp.New(webapp.Config{Token: token, Routes: []core.WebRoute{langOf("coin", app.WebMe), langOf("coin", "chart")},
				Log: slog.New(slog.DiscardHandler), Now: f.clk.Now, Lang: choice})
			auth := "tma " + signedAs(token, tt.user, tt.client)
			var me struct {
				Lang    locale.Lang
				Marks   struct{ Decimal, Group string }
				Modules map[string]struct{ Lang locale.Lang }
			}
			getJSON(t, f, "/app/api/me", auth, &me)
			if me.Lang != tt.want || me.Modules["coin"].Lang != tt.want {
				t.Errorf("me says %q, its module heard %q; want %q", me.Lang, me.Modules["coin"].Lang, tt.want)
			}
			if got := [2]string{me.Marks.Decimal, me.Marks.Group}; got != tt.marks {
				t.Errorf("me's number marks are %q, want %q (the bot's replies' own)", got, tt.marks)
			}
			var route struct{ Lang locale.Lang }
			getJSON(t, f, "/app/api/coin/chart", auth, &route)
			if route.Lang != tt.want {
				t.Errorf("a route heard %q, want %q", route.Lang, tt.want)
			}
			if len(asked) == 0 || asked[len(asked)-1] != tt.client {
				t.Errorf("the language rule was given the client's %q, want %q", asked, tt.client)
			}
		})
	}
}

// Without the engine's rule (a test's server), the client's language_code
// decides.
func TestWithoutAStoredChoiceTheClientsLanguageDecides(t *testing.T) {
	f := newFixture(t, langOf("coin", app.WebMe))
	var me struct{ Lang locale.Lang }
	getJSON(t, f, "/app/api/me", "tma "+signedAs(token, 42, "vi-VN"), &me)
	if me.Lang != locale.Vietnamese {
		t.Errorf("me says %q for a vi-VN client, want vi", me.Lang)
	}
}

func signedAs(tok string, user int64, client string) string {
	u, _ := json.Marshal(map[string]any{"id": user, "first_name": "U", "language_code": client})
	return signed(tok, user, now, "user", string(u))
}

func getJSON(t *testing.T, f *fixture, path, auth string, out any) {
	t.Helper()
	w := f.get(path, auth)
	if w.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", path, w.Code, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// zoneOf is a route that answers the clock it was asked on.
func zoneOf(module, name string) core.WebRoute {
	return core.WebRoute{Module: module, WebRoute: app.WebRoute{Name: name, Handler: func(_ context.Context, r *app.WebRequest) (any, error) {
		return map[string]any{"zone": r.Zone.String()}, nil
	}}}
}

// A route reads the viewer's clock: their /timezone (the engine's rule,
// Config.Zone), Vietnam's without one or without the rule.
func TestEveryRouteReadsTheViewersClock(t *testing.T) {
	const chose = 7 // chose Europe/Berlin with /timezone
	rule := func(_ context.Context, user int64) *time.Location {
		if user == chose {
			return locale.LoadZone("Europe/Berlin")
		}
		return locale.Vietnam
	}
	for _, tt := range []struct {
		name string
		user int64
		rule func(context.Context, int64) *time.Location
		want string
	}{
		{"a chosen zone", chose, rule, "Europe/Berlin"},
		{"none chosen", 42, rule, "ICT"},
		{"no rule", chose, nil, "ICT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fixture{clk: &clock{t: now}}
			f.h = webapp.New(webapp.Config{Token: token, Routes: []core.WebRoute{zoneOf("coin", "chart")},
				Log: slog.New(slog.DiscardHandler), Now: f.clk.Now, Zone: tt.rule})
			var route struct{ Zone string }
			getJSON(t, f, "/app/api/coin/chart", "tma "+signedAs(token, tt.user, "en"), &route)
			if route.Zone != tt.want {
				t.Errorf("the route read %q, want %q", route.Zone, tt.want)
			}
		})
	}
}
