package config_test

import (
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/logging"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// TestNoSecretReachesTheLogs runs start-up and a conversation full of
// failures with every secret set, then reads every log line.
func TestNoSecretReachesTheLogs(t *testing.T) {
	srv := telegramtest.New(t)
	secrets := map[string]string{
		"TELEGRAM_BOT_TOKEN":      srv.Token,
		"TELEGRAM_WEBHOOK_SECRET": "webhook-secret-value",
		"CRON_SHARED_SECRET":      "cron-secret-value",
		"GEMINI_API_KEY":          "gemini-secret-value",
		"MONGO_URL":               "mongodb://bot:mongo-pa55word@" + testenv.FreePort(t) + "/?serverSelectionTimeoutMS=300&connectTimeoutMS=300",
	}
	env := map[string]string{"MONGO_DATABASE": "bot", "TELEGRAM_API_URL": srv.URL, "OWNER_ID": "1", "LOG_LEVEL": "debug"}
	for k, v := range secrets {
		env[k] = v
	}
	cfg, err := config.Load(t.Context(), config.Options{Getenv: envOf(env), Settings: []app.Setting{{Name: "GEMINI_API_KEY", Secret: true}}})
	if err != nil {
		t.Fatal(err)
	}
	logs := &apptest.Logs{}
	log := logging.New(logs, cfg.LogLevel, cfg.Secrets())
	log.Info("configuration loaded", "config", cfg)

	// The MongoDB server is unreachable: the failure is logged.
	if _, err := backend.Open(t.Context(), cfg, log); err == nil {
		t.Fatal("opening an unreachable MongoDB succeeded")
	} else {
		log.Error("storage unavailable", "err", err)
	}

	client, err := telegram.New(cfg.TelegramToken.Reveal(), telegram.WithAPIURL(cfg.TelegramAPIURL), telegram.WithLogger(log))
	if err != nil {
		t.Fatal(err)
	}
	store := storagetest.NewSwitch(memory.New())
	a, err := core.New(store, client, core.WithModules(builtin.Catalogue()), core.WithLogger(log),
		core.WithOwner(cfg.OwnerID), core.WithSettings(cfg.ModuleSettings()), core.WithBotUsername("miti99bot"))
	if err != nil {
		t.Fatal(err)
	}
	say := func(text string) {
		_ = a.HandleUpdate(t.Context(), withUpdateID(telegramtest.Text(apptest.PrivateChat, apptest.User, text)))
	}
	say("/ping")
	srv.FailNext("sendMessage", telegramtest.Failure{Code: 403, Description: "Forbidden: bot was blocked by the user"})
	say("/ping")
	srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	say("/ping")
	store.SetDown(true)
	say("/ping")
	store.SetDown(false)
	a.NotifyDeploy(t.Context(), "abc123")

	// A client with a dead server fails with the token-bearing URL inside.
	dead, _ := telegram.New(cfg.TelegramToken.Reveal(), telegram.WithAPIURL("http://127.0.0.1:1"), telegram.WithLogger(log))
	if _, err := dead.Send(t.Context(), app.Message{ChatID: 1, Text: "x"}); err != nil {
		log.Error("send failed", "err", err)
	}

	out := logs.String()
	if strings.Count(out, "\n") < 8 {
		t.Fatalf("the scenario logged too little to prove anything:\n%s", out)
	}
	for name, v := range secrets {
		if strings.Contains(out, v) {
			t.Errorf("%s appears in the logs", name)
		}
	}
	if strings.Contains(out, "mongo-pa55word") {
		t.Error("the MongoDB password appears in the logs")
	}
	if t.Failed() {
		t.Log(out)
	}
}

var scenarioIDs int64

func withUpdateID(u *models.Update) *models.Update {
	scenarioIDs++
	u.ID = scenarioIDs
	return u
}
