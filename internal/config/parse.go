package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/redact"
)

// The shapes Telegram gives its credentials: a bot token is the bot's id, a
// colon and a key; a webhook secret_token is 1-256 of these characters (the
// cron secret follows the same rule). A value of another shape can never
// work, so it is refused at start-up, naming the variable, never the value.
// Checked by hand, not by a regexp: a start that compiles none never pays
// for the regexp compiler.
func isToken(s string) bool {
	id, key, ok := strings.Cut(s, ":")
	return id != "" && ok && strings.Trim(id, "0123456789") == "" && isSecret(key)
}

func isSecret(s string) bool {
	return s != "" && strings.TrimFunc(s, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
	}) == ""
}

// logLevels are the LOG_LEVEL values (slog would also take "error+100").
var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

// parse reads the values with a syntax, reporting every bad one.
func (c *Config) parse(env func(string) string, lambda bool) []error {
	var problems []error
	bad := func(format string, a ...any) { problems = append(problems, fmt.Errorf(format, a...)) }
	if t := c.TelegramToken.Reveal(); t != "" && !isToken(t) {
		bad("TELEGRAM_BOT_TOKEN: not a bot token (digits, a colon, then letters, digits, _ and - only)")
	}
	for _, s := range []struct {
		name  string
		value Secret
	}{{"TELEGRAM_WEBHOOK_SECRET", c.WebhookSecret}, {"CRON_SHARED_SECRET", c.CronSecret}} {
		if v := s.value.Reveal(); s.value.IsSet() && (len(v) > 256 || !isSecret(v)) {
			bad("%s: must be 1 to 256 of A-Z, a-z, 0-9, _ and - (what Telegram accepts as a secret_token)", s.name)
		}
	}
	problems = append(problems, c.parseAPIURL()...)
	if c.WebhookURL != "" && !lambda {
		u, err := url.Parse(c.WebhookURL)
		loopback := err == nil && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")
		switch {
		case err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && loopback)):
			bad("TELEGRAM_WEBHOOK_URL: %q is not an https URL (Telegram calls only https)", redactURL(c.WebhookURL))
		case !c.WebhookSecret.IsSet():
			bad("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
		}
	}
	problems = append(problems, c.parseAppURL(env("APP_URL"))...)
	c.OwnerID = userID(env("OWNER_ID"), "OWNER_ID", bad)
	for _, v := range splitCSV(env("ADMIN_IDS")) {
		if id := userID(v, "ADMIN_IDS", bad); id != 0 {
			c.AdminIDs = append(c.AdminIDs, id)
		}
	}
	level, ok := logLevels[strings.ToLower(orDefault(env("LOG_LEVEL"), "info"))]
	if !ok {
		bad("LOG_LEVEL: %q is not debug, info, warn or error", env("LOG_LEVEL"))
	}
	c.LogLevel = level
	c.Port = 8080
	if v := env("PORT"); v != "" && !lambda { // Lambda serves no port: PORT is not its concern
		var err error
		if c.Port, err = strconv.Atoi(v); err != nil || c.Port < 1 || c.Port > 65535 {
			bad("PORT: %q is not a TCP port", v)
		}
	}
	switch v := env("MONGO_ALLOW_FERRETDB"); v {
	case "", "false":
	case "true":
		c.MongoAllowFerretDB = true
	default:
		// An opt-out of a storage promise is spelled one way only.
		bad("MONGO_ALLOW_FERRETDB: %q is not true or false", v)
	}
	if lambda {
		return problems
	}
	c.MetricsEnabled = boolean(env, "METRICS_ENABLED", bad)
	c.BoltCreate = boolean(env, "BOLT_CREATE", bad)
	c.parseBackup(env, bad)
	c.MetricsPort = 9091
	if v := env("METRICS_PORT"); v != "" {
		var err error
		if c.MetricsPort, err = strconv.Atoi(v); err != nil || c.MetricsPort < 1 || c.MetricsPort > 65535 {
			bad("METRICS_PORT: %q is not a TCP port", v)
		}
	}
	if c.BindAddr = env("BIND_ADDR"); c.BindAddr != "" && net.ParseIP(c.BindAddr) == nil {
		bad("BIND_ADDR: %q is not an IP address (e.g. 127.0.0.1 for this host only; unset: every interface)", c.BindAddr)
	}
	if c.MetricsHost = env("METRICS_HOST"); c.MetricsHost != "" && net.ParseIP(c.MetricsHost) == nil {
		bad("METRICS_HOST: %q is not an IP address (e.g. 127.0.0.1 for this host only; unset: every interface)", c.MetricsHost)
	}
	if c.MetricsEnabled && c.MetricsPort == c.Port {
		bad("METRICS_PORT: %d is PORT too; metrics need a port of their own, which the public domain does not route to", c.Port)
	}
	return problems
}

// boolean reads a true/false variable ("" is false).
func boolean(env func(string) string, name string, bad func(string, ...any)) bool {
	switch v := strings.ToLower(env(name)); v {
	case "", "false", "0", "no":
	case "true", "1", "yes":
		return true
	default:
		bad("%s: %q is not true or false", name, v)
	}
	return false
}

// userID reads a Telegram user id: a positive number ("" is none).
func userID(v, name string, bad func(string, ...any)) int64 {
	if v == "" {
		return 0
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		bad("%s: %q is not a Telegram user id (a positive number)", name, v)
		return 0
	}
	return id
}

// parseAPIURL checks TELEGRAM_API_URL. Credentials in it (a self-hosted Bot
// API behind basic auth) become secrets: masked in every log line, and the
// URL is shown without them.
func (c *Config) parseAPIURL() []error {
	u, err := url.Parse(c.TelegramAPIURL)
	if err == nil && u.User != nil && u.User.String() != "" {
		c.secrets = append(c.secrets, u.User.String())
		if p, ok := u.User.Password(); ok && p != "" {
			c.secrets = append(c.secrets, p)
		}
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return []error{fmt.Errorf("TELEGRAM_API_URL: %q is not an http(s) URL", redactURL(c.TelegramAPIURL))}
	}
	return nil
}

// redactURL is raw without its userinfo, for messages and the start-up line.
// All of it goes, not only the password (url.URL.Redacted keeps the user):
// basic auth may carry a token as the user name.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		u.User = nil
		return u.String()
	}
	return redact.String(raw, redact.URLSecrets(raw)[1:]...)
}
