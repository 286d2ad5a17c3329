package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

func TestTheConsolesOwnWordsAreInEnglishAndVietnameseAlike(t *testing.T) {
	if problems := texts.Check(); len(problems) != 0 {
		t.Fatalf("the console's catalog is incomplete:\n%s", strings.Join(problems, "\n"))
	}
}

// -lang vi: the console's own banner, notes and refusals are Vietnamese,
// not only the bot's replies.
func TestTheConsolesBannerAndPromptsSpeakTheLanguageItWasGiven(t *testing.T) {
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"vi", []string{"Gõ /help", "(không có nút 7:"}},
		{"", []string{"Type /help", "(no button 7:"}},
	} {
		t.Run("lang "+tt.lang, func(t *testing.T) {
			var out bytes.Buffer
			m := NewMessenger(&out)
			m.Lang, m.Logs = tt.lang, "/tmp/bot.log"
			err := m.Run(t.Context(), strings.NewReader("7\n"), &out, func(context.Context, *models.Update) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the console (lang %q) printed %q, lacking %q", tt.lang, out.String(), w)
				}
			}
			if tt.lang != "vi" {
				return
			}
			for _, english := range []string{"Type", "Logs go", "no button", "the latest"} {
				if strings.Contains(out.String(), english) {
					t.Errorf("the Vietnamese console printed English %q:\n%s", english, out.String())
				}
			}
		})
	}
}

func TestAVietnameseConsolesKeyboardHintIsVietnamese(t *testing.T) {
	var out bytes.Buffer
	m := NewMessenger(&out)
	m.Lang = "vi"
	kb := app.MustKeyboard([]app.Button{{Text: "A", Data: app.Data("t:", "a")}})
	if _, err := m.Send(t.Context(), app.Message{ChatID: ChatID, Text: "x", Keyboard: kb}); err != nil {
		t.Fatal(err)
	}
	if want := texts.Text(locale.Vietnamese, "console.press_hint", nil); !strings.Contains(out.String(), want) || strings.Contains(out.String(), "type a button") {
		t.Fatalf("a keyboard printed %q; want the hint %q", out.String(), want)
	}
}
