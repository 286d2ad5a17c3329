package config_test

import (
	"strings"
	"testing"
)

func TestAppURLIsGivenOrDerivedFromTheWebhook(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		want    string
		problem string
	}{
		{"given", map[string]string{"APP_URL": "https://bot.example.org/app/"}, "https://bot.example.org/app/", ""},
		{"derived from the webhook URL", map[string]string{"TELEGRAM_WEBHOOK_URL": "https://bot.example.org/webhook", "TELEGRAM_WEBHOOK_SECRET": "s"}, "https://bot.example.org/app/", ""},
		{"given wins over the webhook", map[string]string{"APP_URL": "https://app.example.org/app/", "TELEGRAM_WEBHOOK_URL": "https://bot.example.org/webhook", "TELEGRAM_WEBHOOK_SECRET": "s"}, "https://app.example.org/app/", ""},
		{"unknown without either", map[string]string{}, "", ""},
		{"loopback http for a local trial", map[string]string{"APP_URL": "http://localhost:8080/app/"}, "http://localhost:8080/app/", ""},
		{"plain http is refused", map[string]string{"APP_URL": "http://bot.example.org/app/"}, "", "APP_URL: \"http://bot.example.org/app/\" is not an https URL"},
		{"a path other than /app/ is refused", map[string]string{"APP_URL": "https://bot.example.org/"}, "", "must end in /app/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := load(t, tc.env)
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tc.problem) {
					t.Fatalf("got %v, want %q", err, tc.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.AppURL != tc.want {
				t.Errorf("AppURL %q, want %q", c.AppURL, tc.want)
			}
		})
	}
}
