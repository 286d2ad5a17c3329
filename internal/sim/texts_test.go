package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
)

// TestASayingIsItsKeyOnceItsModuleHasACatalog: a module that moves its
// texts to its catalog must find the checkers' sayings of it there
// (texts.go names the keys), or the checkers would read the English
// literal and miss every Vietnamese reply.
func TestASayingIsItsKeyOnceItsModuleHasACatalog(t *testing.T) {
	cat := apptest.New(t, builtin.Catalogue()).App.Catalog()
	ships := map[string]bool{}
	for _, k := range cat.Keys(locale.English) {
		ns, _, _ := strings.Cut(k, ".")
		ships[ns] = true
	}
	for _, s := range sayings {
		ns, _, _ := strings.Cut(s.key, ".")
		if ships[ns] && !cat.Has(locale.English, s.key) {
			t.Errorf("%s has a catalog without %s: name the key its %q moved to in texts.go", ns, s.key, s.english)
		}
	}
}

func TestAReminderIsKnownByItsUsersOwnWordsInAnyLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"⏰ Reminder: n12 stretch":           "n12",
		"⏰ Reminder for U1001: n3 stretch":  "n3",
		"⏰ Nhắc việc cho U1001: n3 stretch": "n3",
		"⏰ I will remind you in 5 minutes.": "",
		"n4 stretch and more":               "",
	} {
		if got := reminderToken(text); got != want {
			t.Errorf("reminderToken(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestAnAlertsLevelIsKnownAsEveryLanguageWritesMoney(t *testing.T) {
	got := levelShown(decimal.RequireFromString("91234.5"))
	for _, want := range []string{"$91,234.50", "91.234,50\u00a0$"} {
		if !slices.Contains(got, want) {
			t.Errorf("levelShown(91234.5) = %q, lacks %q", got, want)
		}
	}
}
