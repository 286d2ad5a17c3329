// Package config reads miti99bot's settings from the environment once, with
// secrets optionally from AWS SSM Parameter Store, and validates everything
// together so that start-up reports every problem at once.
package config

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv"
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
	WebhookURL string
	// AppURL is the Mini App's public URL (…/app/): APP_URL, else derived
	// from WebhookURL; empty: not known yet (see parseAppURL).
	AppURL      string
	BotUsername string
	OwnerID     int64
	AdminIDs    []int64
	// Modules is MODULES in order; empty means every built-in module.
	Modules []string

	// Backend is the resolved storage backend; BackendReason says why.
	Backend       string
	BackendReason string
	MongoDatabase string
	// MongoAllowFerretDB accepts a FerretDB server, which mongodb.Open
	// refuses otherwise (MONGO_ALLOW_FERRETDB=true: tests, local trials).
	MongoAllowFerretDB bool
	DynamoDBTable      string
	BoltPath           string
	// BoltCreate starts a new store in an existing 0-byte BoltPath, which
	// is otherwise refused (a failed copy or restore, more likely).
	BoltCreate bool
	// BackupDir turns on the container's scheduled snapshots, into this
	// directory, on BackupSchedule, the newest BackupKeep kept.
	BackupDir      string
	BackupSchedule string
	BackupKeep     int

	LogLevel slog.Level
	// Port is the container's HTTP port, on BindAddr ("": every interface).
	Port     int
	BindAddr string
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

// BotID is the bot's numeric id, the part of its token before the colon,
// which is no secret (Telegram shows it to every user); 0 without a token.
func (c *Config) BotID() int64 {
	id, _, _ := strings.Cut(c.TelegramToken.Reveal(), ":")
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

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
