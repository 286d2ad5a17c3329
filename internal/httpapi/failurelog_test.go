package httpapi_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// linesNaming is the log lines of update id that quote cause.
func linesNaming(logs string, id, cause string) []string {
	var out []string
	for line := range strings.Lines(logs) {
		if strings.Contains(line, `"update_id":`+id+",") && strings.Contains(line, cause) {
			out = append(out, line)
		}
	}
	return out
}

// An update that fails on the store answers 500 (Telegram delivers it
// again), and the log says why, once, with the update's id: on the Lambda
// the 500 alone tells an operator nothing.
func TestAWebhookUpdateThatFailsOnTheStoreLogsItsCauseOnce(t *testing.T) {
	tests := []struct {
		name, text string
		down       bool // the store is down before the update comes
	}{
		{"the store is down: the claim fails", "/ping", true},
		{"the store fails in the module's run", "/note", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sw *storagetest.Switch
			bot := apptest.New(t, []app.Factory{apptest.StoreFails(&sw)})
			sw = bot.Store
			h := httpapi.NewHandler(httpapi.Config{Handle: bot.App.HandleUpdate, Health: bot.App.Health, WebhookSecret: webhookSecret, Log: bot.Log})
			bot.Store.SetDown(tt.down)
			f := &fixture{bot: bot, h: h}
			body := telegramtest.WebhookBody(t, 42, apptest.PrivateChat, apptest.User, tt.text)
			if rec := f.do("POST", "/webhook", map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret}, body); rec.Code != 500 {
				t.Fatalf("POST /webhook = %d, want 500", rec.Code)
			}
			lines := linesNaming(bot.Logs.String(), "42", storagetest.ErrDown.Error())
			if len(lines) != 1 || !strings.Contains(lines[0], `"level":"ERROR"`) && !strings.Contains(lines[0], `"level":"WARN"`) {
				t.Fatalf("want one ERROR or WARN line with the update's id and the store's error, got %d:\n%s", len(lines), bot.Logs.String())
			}
		})
	}
}
