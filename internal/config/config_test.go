package config_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/config"
)

// envOf turns a map into a getenv.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func load(t *testing.T, env map[string]string, require ...string) (*config.Config, error) {
	t.Helper()
	return config.Load(t.Context(), config.Options{
		Getenv:   envOf(env),
		Settings: []app.Setting{{Name: "GEMINI_API_KEY", Secret: true}, {Name: "LOL_API_URL"}},
		Require:  require,
	})
}

func TestDefaultsRunOnTheMemoryStore(t *testing.T) {
	c, err := load(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Backend != config.BackendMemory || c.BackendReason != "no backend configured" || c.Port != 8080 ||
		c.LogLevel != slog.LevelInfo || c.TelegramAPIURL != "https://api.telegram.org" || len(c.Modules) != 0 || c.BindAddr != "" {
		t.Fatalf("defaults = %+v", c)
	}
}

func TestValuesAreParsed(t *testing.T) {
	c, err := load(t, map[string]string{
		"OWNER_ID": "42", "ADMIN_IDS": " 7, 8 ,", "MODULES": "util, misc", "LOG_LEVEL": "debug", "PORT": "9000",
		"TELEGRAM_BOT_USERNAME": "@miti99bot", "GEMINI_API_KEY": "g-key", "LOL_API_URL": "http://lol", "BOLT_CREATE": "true",
		"METRICS_HOST": "127.0.0.1", "MONGO_ALLOW_FERRETDB": "true", "BIND_ADDR": "127.0.0.1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.OwnerID != 42 || fmt.Sprint(c.AdminIDs) != "[7 8]" || strings.Join(c.Modules, ",") != "util,misc" ||
		c.LogLevel != slog.LevelDebug || c.Port != 9000 || c.BotUsername != "miti99bot" ||
		c.ModuleSettings()["GEMINI_API_KEY"] != "g-key" || c.ModuleSettings()["LOL_API_URL"] != "http://lol" || !c.BoltCreate ||
		c.MetricsHost != "127.0.0.1" || !c.MongoAllowFerretDB || c.BindAddr != "127.0.0.1" {
		t.Fatalf("config = %+v", c)
	}
}

func TestBackendChoice(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		want, why string
	}{
		{"MONGO_URL picks mongodb", map[string]string{"MONGO_URL": "mongodb://h", "MONGO_DATABASE": "bot"}, "mongodb", "MONGO_URL is set"},
		{"DYNAMODB_TABLE picks dynamodb", map[string]string{"DYNAMODB_TABLE": "t"}, "dynamodb", "DYNAMODB_TABLE is set"},
		{"MONGO_URL wins over DYNAMODB_TABLE", map[string]string{"MONGO_URL": "mongodb://h", "MONGO_DATABASE": "bot", "DYNAMODB_TABLE": "t"}, "mongodb", "MONGO_URL is set"},
		{"KV_PROVIDER overrides", map[string]string{"KV_PROVIDER": "memory", "DYNAMODB_TABLE": "t"}, "memory", "KV_PROVIDER=memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := load(t, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if c.Backend != tt.want || c.BackendReason != tt.why {
				t.Fatalf("backend %q (%s), want %q (%s)", c.Backend, c.BackendReason, tt.want, tt.why)
			}
		})
	}
}

func TestEveryProblemIsReportedAtOnce(t *testing.T) {
	_, err := load(t, map[string]string{
		"OWNER_ID": "me", "ADMIN_IDS": "1,x", "LOG_LEVEL": "loud", "PORT": "99999",
		"KV_PROVIDER": "redis", "TELEGRAM_API_URL": "ftp://x", "BOLT_CREATE": "maybe", "METRICS_HOST": "metrics.example",
		"MONGO_ALLOW_FERRETDB": "yes", "BIND_ADDR": "localhost",
	}, "TELEGRAM_BOT_TOKEN")
	if err == nil {
		t.Fatal("Load accepted a bad configuration")
	}
	for _, want := range []string{"OWNER_ID", `ADMIN_IDS: "x"`, "LOG_LEVEL", "PORT", `KV_PROVIDER: "redis"`, "TELEGRAM_API_URL", "TELEGRAM_BOT_TOKEN is required", `BOLT_CREATE: "maybe"`, `METRICS_HOST: "metrics.example"`, `MONGO_ALLOW_FERRETDB: "yes"`, `BIND_ADDR: "localhost"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %s:\n%v", want, err)
		}
	}
}

func TestABackendNamesWhatItLacks(t *testing.T) {
	tests := map[string]struct {
		env  map[string]string
		want []string
	}{
		"mongodb":  {map[string]string{"KV_PROVIDER": "mongodb"}, []string{"MONGO_URL is required", "MONGO_DATABASE is required"}},
		"dynamodb": {map[string]string{"KV_PROVIDER": "dynamodb"}, []string{"DYNAMODB_TABLE is required"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := load(t, tt.env)
			for _, w := range tt.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v lacks %q", err, w)
				}
			}
		})
	}
}

func TestSecretsNeverPrint(t *testing.T) {
	const token, mongo = "123:SECRET-token", "mongodb://u:pa55@h/db"
	c, err := load(t, map[string]string{"TELEGRAM_BOT_TOKEN": token, "MONGO_URL": mongo, "MONGO_DATABASE": "db", "GEMINI_API_KEY": "g-secret"})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(c)
	printed := fmt.Sprintf("%v %+v %#v %s %s", c, c, c, c.TelegramToken, js)
	for _, s := range []string{token, mongo, "pa55"} {
		if strings.Contains(printed, s) {
			t.Fatalf("%q printed:\n%s", s, printed)
		}
	}
	if c.TelegramToken.Reveal() != token || c.MongoURL.Reveal() != mongo {
		t.Fatal("Reveal must return the value")
	}
	if got := strings.Join(c.Secrets(), " "); !strings.Contains(got, token) || !strings.Contains(got, "g-secret") {
		t.Fatalf("Secrets() = %q, want every secret for log masking", got)
	}
}

func TestAnUnusableValueStopsStartUpNamingTheVariableNeverTheValue(t *testing.T) {
	tests := []struct {
		name, variable, value, want string
	}{
		{"a token with a newline", "TELEGRAM_BOT_TOKEN", "123456:abc\ndefXYZZY", "TELEGRAM_BOT_TOKEN: not a bot token"},
		{"a token with a space", "TELEGRAM_BOT_TOKEN", "123456:abc defXYZZY", "TELEGRAM_BOT_TOKEN: not a bot token"},
		{"a token with a quote", "TELEGRAM_BOT_TOKEN", `123456:abc"defXYZZY`, "TELEGRAM_BOT_TOKEN: not a bot token"},
		{"a token with a slash", "TELEGRAM_BOT_TOKEN", "123456:abc/defXYZZY", "TELEGRAM_BOT_TOKEN: not a bot token"},
		{"a token with ?#", "TELEGRAM_BOT_TOKEN", "123456:abc?d#eXYZZY", "TELEGRAM_BOT_TOKEN: not a bot token"},
		{"a webhook secret Telegram refuses", "TELEGRAM_WEBHOOK_SECRET", "has spaces XYZZY", "TELEGRAM_WEBHOOK_SECRET: must be 1 to 256"},
		{"a cron secret of 300 characters", "CRON_SHARED_SECRET", strings.Repeat("s", 297) + "XYZZY", "CRON_SHARED_SECRET: must be 1 to 256"},
		{"a negative owner", "OWNER_ID", "-5", "OWNER_ID: \"-5\" is not a Telegram user id"},
		{"an admin of zero", "ADMIN_IDS", "7,0", "ADMIN_IDS: \"0\" is not a Telegram user id"},
		{"a level past error", "LOG_LEVEL", "error+100", "LOG_LEVEL: \"error+100\" is not debug, info, warn or error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, map[string]string{tt.variable: tt.value})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "XYZZY") {
				t.Fatalf("the error shows the secret: %v", err)
			}
		})
	}
}

func TestCredentialsInTheBotAPIURLAreNeverPrinted(t *testing.T) {
	for _, c := range []struct{ name, url, secret string }{
		{"a password", "https://bot:hunter2pass@tg.example.org", "hunter2pass"},
		{"a token as the user name", "https://hunter2token@tg.example.org", "hunter2token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := load(t, map[string]string{"TELEGRAM_API_URL": c.url})
			if err != nil {
				t.Fatal(err)
			}
			if s := cfg.String(); strings.Contains(s, c.secret) || !strings.Contains(s, "telegram_api=https://tg.example.org") {
				t.Fatalf("start-up summary %q", s)
			}
			if !slices.ContainsFunc(cfg.Secrets(), func(s string) bool { return strings.Contains(s, c.secret) }) {
				t.Fatal("the credentials are not among the secrets the logger masks")
			}
			bad := strings.Replace(c.url, "https", "ftp", 1)
			if _, err := load(t, map[string]string{"TELEGRAM_API_URL": bad}); err == nil || strings.Contains(err.Error(), c.secret) {
				t.Fatalf("a bad URL's error = %v, want one without the credentials", err)
			}
		})
	}
}

func TestLambdaIgnoresThePortItNeverServes(t *testing.T) {
	c, err := config.Load(t.Context(), config.Options{Getenv: envOf(map[string]string{"PORT": "not-a-port"}), Lambda: true})
	if err != nil || c == nil {
		t.Fatalf("Lambda with PORT=not-a-port: %v", err)
	}
	if _, err := load(t, map[string]string{"PORT": "not-a-port"}); err == nil {
		t.Fatal("the container must still refuse a bad PORT")
	}
}
