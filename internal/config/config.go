// Package config reads miti99bot's settings from the environment once, with
// secrets optionally from AWS SSM Parameter Store, and validates everything
// together so that start-up reports every problem at once.
package config

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/redact"
)

// Storage backends.
const (
	BackendMemory   = "memory"
	BackendDynamoDB = "dynamodb"
	BackendMongoDB  = "mongodb"
	BackendBolt     = "bolt"
)

// Config is the validated configuration.
type Config struct {
	TelegramToken  Secret
	WebhookSecret  Secret
	CronSecret     Secret
	MongoURL       Secret
	TelegramAPIURL string
	// WebhookURL puts the container in webhook mode: it registers this URL
	// and serves POST /webhook instead of polling.
	WebhookURL  string
	BotUsername string
	OwnerID     int64
	AdminIDs    []int64
	// Modules is MODULES in order; empty means every built-in module.
	Modules []string

	// Backend is the resolved storage backend; BackendReason says why.
	Backend       string
	BackendReason string
	MongoDatabase string
	DynamoDBTable string
	BoltPath      string
	// BoltCreate starts a new store in an existing 0-byte BoltPath, which
	// is otherwise refused (a failed copy or restore, more likely).
	BoltCreate bool
	// BackupDir turns on the container's scheduled snapshots, into this
	// directory, on BackupSchedule, the newest BackupKeep kept.
	BackupDir      string
	BackupSchedule string
	BackupKeep     int

	LogLevel slog.Level
	Port     int
	// MetricsPort serves GET /metrics when MetricsEnabled (container), on
	// MetricsHost ("": every interface).
	MetricsEnabled bool
	MetricsPort    int
	MetricsHost    string

	// AWS is Options.AWS, for the DynamoDB client.
	AWS awsenv.Source

	// settings are the modules' declared settings; every value is kept as
	// a Secret so that printing the config cannot show an API key.
	settings map[string]Secret
	secrets  []string
}

// Secrets returns every secret value, for log redaction.
func (c *Config) Secrets() []string { return c.secrets }

// ModuleSettings returns the modules' settings, revealed, for the core.
func (c *Config) ModuleSettings() map[string]string {
	out := make(map[string]string, len(c.settings))
	for k, v := range c.settings {
		out[k] = v.Reveal()
	}
	return out
}

// String summarises the configuration without any secret value.
func (c *Config) String() string {
	return fmt.Sprintf("backend=%s (%s) telegram_api=%s owner=%d admins=%v modules=%v log_level=%s port=%d secrets_set=%d",
		c.Backend, c.BackendReason, redactURL(c.TelegramAPIURL), c.OwnerID, c.AdminIDs, c.Modules, c.LogLevel, c.Port, len(c.secrets))
}

// GoString keeps %#v as safe as %v.
func (c *Config) GoString() string { return c.String() }

// LogValue logs the same summary.
func (c *Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Options tell Load where to read and what this runtime needs.
type Options struct {
	Getenv func(string) string
	// Settings are the modules' declared settings (GEMINI_API_KEY, ...).
	Settings []app.Setting
	// Require lists variables this runtime cannot start without.
	Require []string
	// Lambda: the variables only the container reads (PORT) are ignored.
	Lambda bool
	// AWS is where SSM (read only when some <NAME>_PARAMETER_NAME is set)
	// and DynamoDB get their AWS configuration: the main chooses, so the
	// Lambda binary need not link the SDK's shared-config chain.
	AWS awsenv.Source
}

// Load reads, resolves and validates the configuration.
func Load(ctx context.Context, o Options) (*Config, error) {
	env := func(k string) string { return strings.TrimSpace(o.Getenv(k)) }
	var problems []error
	secrets, err := resolveSecrets(ctx, env, secretNames(o.Settings), o.AWS)
	if err != nil {
		problems = append(problems, err)
	}
	c := newConfig(env, secrets, o.Settings)
	c.AWS = o.AWS
	problems = append(problems, c.parse(env, o.Lambda)...)
	problems = append(problems, c.resolveBackend(env("KV_PROVIDER"))...)
	for _, name := range o.Require {
		if env(name) == "" && secrets[name] == "" {
			problems = append(problems, fmt.Errorf("%s is required", name))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("configuration: %w", errors.Join(problems...))
	}
	return c, nil
}

// secretNames are the variables that may come from SSM through
// <NAME>_PARAMETER_NAME.
func secretNames(settings []app.Setting) []string {
	var names []string
	for _, v := range Variables(settings) {
		if v.Secret {
			names = append(names, v.Name)
		}
	}
	return names
}

// newConfig takes the values that need no parsing: the secrets, the plain
// strings and the modules' settings.
func newConfig(env func(string) string, secrets map[string]string, settings []app.Setting) *Config {
	c := &Config{
		TelegramToken:  Secret(secrets["TELEGRAM_BOT_TOKEN"]),
		WebhookSecret:  Secret(secrets["TELEGRAM_WEBHOOK_SECRET"]),
		CronSecret:     Secret(secrets["CRON_SHARED_SECRET"]),
		MongoURL:       Secret(secrets["MONGO_URL"]),
		TelegramAPIURL: orDefault(env("TELEGRAM_API_URL"), "https://api.telegram.org"),
		BotUsername:    strings.TrimPrefix(env("TELEGRAM_BOT_USERNAME"), "@"),
		WebhookURL:     env("TELEGRAM_WEBHOOK_URL"),
		MongoDatabase:  env("MONGO_DATABASE"),
		DynamoDBTable:  env("DYNAMODB_TABLE"),
		BoltPath:       env("BOLT_PATH"),
		Modules:        splitCSV(env("MODULES")),
		settings:       map[string]Secret{},
	}
	for _, v := range secrets {
		if v != "" {
			c.secrets = append(c.secrets, v)
		}
	}
	for _, s := range settings {
		if s.Secret {
			c.settings[s.Name] = Secret(secrets[s.Name])
		} else if v := env(s.Name); v != "" {
			c.settings[s.Name] = Secret(v)
		}
	}
	return c
}

// The shapes Telegram gives its credentials: a bot token is the bot's id, a
// colon and a key; a webhook secret_token is 1-256 of these characters (the
// cron secret follows the same rule). A value of another shape can never
// work, so it is refused at start-up, naming the variable, never the value.
var (
	tokenRE = regexp.MustCompile(`^[0-9]+:[A-Za-z0-9_-]+$`)
	// The length is checked apart: a counted repetition {1,256} compiles
	// to 256 copies at package init, on every Lambda cold start.
	secretRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// logLevels are the LOG_LEVEL values (slog would also take "error+100").
var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

// parse reads the values with a syntax, reporting every bad one.
func (c *Config) parse(env func(string) string, lambda bool) []error {
	var problems []error
	bad := func(format string, a ...any) { problems = append(problems, fmt.Errorf(format, a...)) }
	if t := c.TelegramToken.Reveal(); t != "" && !tokenRE.MatchString(t) {
		bad("TELEGRAM_BOT_TOKEN: not a bot token (digits, a colon, then letters, digits, _ and - only)")
	}
	for _, s := range []struct {
		name  string
		value Secret
	}{{"TELEGRAM_WEBHOOK_SECRET", c.WebhookSecret}, {"CRON_SHARED_SECRET", c.CronSecret}} {
		if v := s.value.Reveal(); s.value.IsSet() && (len(v) > 256 || !secretRE.MatchString(v)) {
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

// resolveBackend applies KV_PROVIDER, or picks from what is configured.
func (c *Config) resolveBackend(explicit string) []error {
	switch {
	case explicit != "":
		c.Backend, c.BackendReason = explicit, "KV_PROVIDER="+explicit
	case c.MongoURL.IsSet():
		c.Backend, c.BackendReason = BackendMongoDB, "MONGO_URL is set"
	case c.DynamoDBTable != "":
		c.Backend, c.BackendReason = BackendDynamoDB, "DYNAMODB_TABLE is set"
	case c.BoltPath != "":
		c.Backend, c.BackendReason = BackendBolt, "BOLT_PATH is set"
	default:
		c.Backend, c.BackendReason = BackendMemory, "no backend configured"
	}
	var errs []error
	switch c.Backend {
	case BackendMemory:
	case BackendMongoDB:
		if !c.MongoURL.IsSet() {
			errs = append(errs, errors.New("MONGO_URL is required for KV_PROVIDER=mongodb"))
		}
		if c.MongoDatabase == "" {
			errs = append(errs, errors.New("MONGO_DATABASE is required for KV_PROVIDER=mongodb"))
		}
	case BackendBolt:
		if c.BoltPath == "" {
			errs = append(errs, errors.New("BOLT_PATH is required for KV_PROVIDER=bolt"))
		}
	case BackendDynamoDB:
		if c.DynamoDBTable == "" {
			errs = append(errs, errors.New("DYNAMODB_TABLE is required for KV_PROVIDER=dynamodb"))
		}
	default:
		errs = append(errs, fmt.Errorf("KV_PROVIDER: %q is not memory, dynamodb, mongodb or bolt", explicit))
	}
	return errs
}

func splitCSV(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
