package app_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

func TestQuoteBoundsAnEcho(t *testing.T) {
	tests := []struct{ in, want string }{
		{"BTC", `"BTC"`},
		{"", `""`},
		{strings.Repeat("A", 4100), `"` + strings.Repeat("A", 32) + `"…`},
		{"a\nb", `"a\nb"`},
	}
	for _, tt := range tests {
		if got := app.Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.40q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func units(s string) int { return len(utf16.Encode([]rune(s))) }

func TestFitCutsWhatTelegramWouldRefuse(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		mode     models.ParseMode
		wantMode models.ParseMode
		whole    bool // sent unchanged
		cut      bool // cut, with an ellipsis
	}{
		{"a message within the limit goes as is", strings.Repeat("a", 4096), "", "", true, false},
		{"a long message is cut with an ellipsis", strings.Repeat("a", 5000), "", "", false, true},
		{"astral characters count two units", strings.Repeat("😀", 3000), "", "", false, true},
		{"an invalid byte counts one unit, as the U+FFFD it is sent as", strings.Repeat("0", 40) + strings.Repeat("\xdd", 5000), "", "", false, true},
		{"long HTML goes as its plain text", strings.Repeat("<b>x</b> &amp; ", 1000), models.ParseModeHTML, "", false, false},
		{"long HTML whose text is long too is cut", strings.Repeat("<i>xxxxxxxx</i>", 1000), models.ParseModeHTML, "", false, true},
		{"short HTML stays HTML", "<b>x</b>", models.ParseModeHTML, models.ParseModeHTML, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, mode := app.Fit(tt.text, tt.mode)
			if units(got) > app.MaxMessageUnits || mode != tt.wantMode {
				t.Fatalf("Fit = %d units, mode %q; want at most %d, mode %q", units(got), mode, app.MaxMessageUnits, tt.wantMode)
			}
			if tt.whole != (got == tt.text) || tt.cut != strings.HasSuffix(got, "…") {
				t.Fatalf("Fit changed %v, ends %q", got != tt.text, got[max(0, len(got)-8):])
			}
			if strings.Contains(got, "<b>") && mode == "" {
				t.Fatal("tags left in a plain-text message")
			}
		})
	}
}

// FuzzQuoteAndFit: an echo is short, and a fitted message is within the limit.
func FuzzQuoteAndFit(f *testing.F) {
	f.Add("BTC", "<b>x</b>")
	f.Add("😀\n\"'", "&amp;<i>")
	f.Fuzz(func(t *testing.T, echo, text string) {
		// 32 characters, each escaped to at most 10 ("\U0001f600"), in quotes.
		if q := app.Quote(echo); len([]rune(q)) > 32*10+3 {
			t.Fatalf("Quote gave %d characters", len([]rune(q)))
		}
		for _, mode := range []models.ParseMode{"", models.ParseModeHTML} {
			if got, _ := app.Fit(text, mode); units(got) > app.MaxMessageUnits {
				t.Fatalf("Fit gave %d units", units(got))
			}
		}
	})
}
