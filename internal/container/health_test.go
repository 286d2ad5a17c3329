package container

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/httpapi"
)

// portOf is the loopback port srv listens on, which CheckHealth dials.
func portOf(srv *httptest.Server) string {
	return srv.URL[strings.LastIndex(srv.URL, ":")+1:]
}

// The healthcheck's output is what Docker and Coolify show: a failure says
// why, in the words /healthz gives, on one line.
func TestHealthcheckPrintsTheReasonHealthzGives(t *testing.T) {
	tests := []struct {
		name   string
		health error
		want   string
	}{
		{"a healthy bot passes", nil, ""},
		{"an unhealthy bot names the reason", errors.New("polling: Telegram rejects the bot token (401); set a valid TELEGRAM_BOT_TOKEN"),
			"unhealthy: /healthz answered 503: polling: Telegram rejects the bot token (401); set a valid TELEGRAM_BOT_TOKEN"},
		{"a reason over lines reads as one", errors.New("store unavailable\nretrying"), "unhealthy: /healthz answered 503: store unavailable retrying"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(httpapi.NewHandler(httpapi.Config{
				Health: func(context.Context) error { return tt.health }, Log: slog.New(slog.DiscardHandler),
			}))
			defer srv.Close()
			err := CheckHealth(t.Context(), "", portOf(srv))
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Fatalf("CheckHealth = %v; want %q", err, tt.want)
			}
		})
	}
}

func TestHealthcheckBoundsWhatItQuotes(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"no body: the status alone", "", "unhealthy: /healthz answered 503"},
		{"a long body is cut", "unhealthy: " + strings.Repeat("x", 1000), "unhealthy: /healthz answered 503: " + strings.Repeat("x", maxReason-len("unhealthy: "))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			if err := CheckHealth(t.Context(), "", portOf(srv)); err == nil || err.Error() != tt.want {
				t.Fatalf("CheckHealth = %v; want %q", err, tt.want)
			}
		})
	}
}
