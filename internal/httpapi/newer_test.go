package httpapi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestAWebhookUpdateNewerThanTheDecoderIsHandledWithWhatItCanRead(t *testing.T) {
	tests := []struct {
		recorded string
		ignored  string
		handled  func(f *fixture) bool
	}{
		{"update_forward_unknown_origin.json", `["message.forward_origin"]`, // a forwarded /ping
			func(f *fixture) bool { return f.bot.Last() == "pong" }},
		{"update_callback_reply_unknown_origin.json", `["callback_query.message.reply_to_message.forward_origin"]`,
			func(f *fixture) bool { return slices.Equal(f.bot.Toasts(), []string{app.StaleButtonToast}) }},
		{"update_my_chat_member_unknown_old_status.json", `["my_chat_member.old_chat_member"]`, // kicked
			func(f *fixture) bool { return strings.Contains(f.bot.Logs.String(), `"action":"bot removed"`) }},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.recorded, ".json"), func(t *testing.T) {
			f := newFixture(t, webhookSecret, cronSecret)
			h := map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret}
			if rec := f.do("POST", "/webhook", h, string(telegramtest.Recorded(t, tt.recorded))); rec.Code != 200 {
				t.Fatalf("status = %d, want 200", rec.Code)
			}
			if !tt.handled(f) {
				t.Fatalf("not handled: replies %q, toasts %q", f.bot.Replies(), f.bot.Toasts())
			}
			logs := f.bot.Logs.String()
			if strings.Count(logs, "update decoded in part") != 1 || !strings.Contains(logs, `"ignored":`+tt.ignored) {
				t.Fatalf("want one log line naming what was left out, %s: %s", tt.ignored, logs)
			}
			if strings.Contains(logs, "secret forwarded words") {
				t.Fatalf("the log carries the update's content: %s", logs)
			}
		})
	}
}
