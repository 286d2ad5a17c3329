package config_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/config"
)

// FuzzLoad: any value of any variable loads or fails with an error that
// never carries a secret's value.
func FuzzLoad(f *testing.F) {
	f.Add("123456:TEST-token", "wh-secret", "42", "7,8", "debug", "8080", "https://api.telegram.org")
	f.Add("123456:abc\ndef", "has space", "-5", "x", "error+100", "0", "ftp://u:p@h")
	f.Fuzz(func(t *testing.T, token, webhook, owner, admins, level, port, apiURL string) {
		env := map[string]string{
			"TELEGRAM_BOT_TOKEN": token, "TELEGRAM_WEBHOOK_SECRET": webhook, "OWNER_ID": owner, "ADMIN_IDS": admins,
			"LOG_LEVEL": level, "PORT": port, "TELEGRAM_API_URL": apiURL,
		}
		c, err := config.Load(t.Context(), config.Options{Getenv: envOf(env)})
		if err != nil {
			for _, secret := range []string{token, webhook} {
				if len(strings.TrimSpace(secret)) >= 8 && strings.Contains(err.Error(), strings.TrimSpace(secret)) {
					t.Fatalf("the error shows a secret: %v", err)
				}
			}
			return
		}
		if u, err := url.Parse(apiURL); err == nil && u.User.String() != "" && strings.Contains(c.String(), u.User.String()+"@") {
			t.Fatalf("the summary shows the API URL with its credentials: %s", c)
		}
	})
}
