package config

import (
	"fmt"
	"net/url"
	"strings"
)

// parseAppURL checks APP_URL, or derives it from TELEGRAM_WEBHOOK_URL
// (the same host's /app/); unset and underivable, it stays empty and the
// Lambda learns it from the Function URL a webhook comes in by.
func (c *Config) parseAppURL(raw string) []error {
	var problems []error
	if raw == "" {
		if base, ok := strings.CutSuffix(c.WebhookURL, "/webhook"); ok && c.WebhookURL != "" {
			c.AppURL = base + "/app/"
		}
		return nil
	}
	u, err := url.Parse(raw)
	loopback := err == nil && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && loopback)):
		problems = append(problems, fmt.Errorf("APP_URL: %q is not an https URL (Telegram opens Mini Apps over https only)", redactURL(raw)))
	case !strings.HasSuffix(u.Path, "/app/"):
		problems = append(problems, fmt.Errorf("APP_URL: %q must end in /app/, where the bot serves the Mini App", redactURL(raw)))
	default:
		c.AppURL = raw
	}
	return problems
}
