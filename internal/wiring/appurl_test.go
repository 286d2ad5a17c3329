package wiring_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// Without APP_URL, the Lambda learns the Mini App's address from the first
// webhook Telegram sends (its secret proves it), never from another caller.
func TestTheAppURLIsLearnedOnlyFromAWebhookWithTheSecret(t *testing.T) {
	tg := telegramtest.New(t)
	env := map[string]string{"TELEGRAM_BOT_TOKEN": tg.Token, "TELEGRAM_API_URL": tg.URL, "TELEGRAM_WEBHOOK_SECRET": "hook-secret", "KV_PROVIDER": "memory"}
	b, err := wiring.Build(t.Context(), wiring.Options{Runtime: wiring.RuntimeLambda, Getenv: func(k string) string { return env[k] }, Logs: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	post := func(host, secret string) {
		r := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(telegramtest.WebhookBody(t, 1, 5, 5, "hello")))
		r.Host = host
		r.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		b.HTTP.ServeHTTP(httptest.NewRecorder(), r)
	}
	if got := b.AppURL(); got != "" {
		t.Fatalf("before any webhook: %q", got)
	}
	post("evil.example.org", "wrong")
	if got := b.AppURL(); got != "" {
		t.Fatalf("a caller without the secret set it: %q", got)
	}
	post("abc123.lambda-url.us-east-1.on.aws", "hook-secret")
	post("later.example.org", "hook-secret")
	if got, want := b.AppURL(), "https://abc123.lambda-url.us-east-1.on.aws/app/"; got != want {
		t.Fatalf("AppURL %q, want %q", got, want)
	}
}
