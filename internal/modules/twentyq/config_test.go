package twentyq

import (
	"net/http"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
)

func TestAThinkingSettingTheModelAlwaysRejectsStopsTheStart(t *testing.T) {
	tests := []struct {
		model, thinking string
		want            string // in the error; "" starts
	}{
		{"gemini-2.5-pro", "off", "GEMINI_THINKING=off does not suit GEMINI_MODEL=gemini-2.5-pro, which accepts auto; dynamic; a budget of 128 to 32768 tokens"},
		{"gemini-2.5-pro", "64", "a budget of 128 to 32768 tokens"},
		{"gemini-2.5-pro", "low", "a budget of 128 to 32768 tokens"},
		{"gemini-2.5-flash", "30000", "accepts auto; off; dynamic; a budget of 1 to 24576 tokens"},
		{"gemini-2.5-flash", "high", "GEMINI_THINKING=high"},
		{"gemini-2.5-flash-lite", "256", "a budget of 512 to 24576 tokens"},
		{"gemini-3-pro-preview", "medium", "accepts auto; dynamic; a budget of tokens; a level: low, high"},
		{"gemini-3-pro-preview", "off", "GEMINI_THINKING=off"},
		{"gemini-3-flash-preview", "0", "a level: minimal, low, medium, high"},
		{"gemini-2.5-pro", "auto", ""},
		{"gemini-2.5-pro", "dynamic", ""},
		{"gemini-2.5-pro", "128", ""},
		{"gemini-2.5-flash", "off", ""},
		{"gemini-2.5-flash-lite", "off", ""},
		{"gemini-3-pro-preview", "auto", ""},
		{"gemini-3.1-pro-preview", "medium", ""},
		{"gemini-3-flash-preview", "minimal", ""},
		{"gemini-2.0-flash", "off", ""}, // a family without known limits is not checked
	}
	for _, tt := range tests {
		t.Run(tt.model+" "+tt.thinking, func(t *testing.T) {
			_, err := New(app.Deps{Settings: map[string]string{settingRate: "6", settingModel: tt.model,
				settingThinking: tt.thinking, settingMaxOutput: "1024"}})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("start = %v, want it to start", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("start = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestARequestGeminiCallsInvalidSaysTheConfigurationIsWrong(t *testing.T) {
	if strings.Contains(misconfiguredText, "again") {
		t.Fatalf("the reply %q invites a retry that cannot help", misconfiguredText)
	}
	tests := []struct{ file, reason string }{
		{"thinking_budget_invalid.json", "Budget 0 is invalid. This model only works in thinking mode."},
		{"thinking_level_unsupported.json", "Thinking level MEDIUM is not supported for this model."},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, f, _ := setup(t, nil)
			b.MustSay(apptest.Group, apptest.User, "/twentyq")
			f.raw, f.rawCode = recordedAnswer(t, tt.file), http.StatusBadRequest
			b.Expect(apptest.Group, apptest.User, "/twentyq is it blue?", misconfiguredText)
			if logs := b.Logs.String(); !strings.Contains(logs, "twentyq: gemini refused the configuration") || !strings.Contains(logs, tt.reason) {
				t.Fatalf("the log must carry Gemini's reason for the operator, %q: %s", tt.reason, logs)
			}
			b.Expect(apptest.Group, apptest.User, "/twentyq is it blue?", "1/20 is it blue?: No") // the refused question was not counted
		})
	}
}
