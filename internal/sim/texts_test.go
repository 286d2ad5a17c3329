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

// TestASayingIsItsKeyOnceItsTextIsInTheCatalog: a module that moves a
// text the checkers read to its catalog must do so under the key texts.go
// names, or the checkers would go on reading the English literal and miss
// every Vietnamese reply: a text of the saying's module starting as its
// English literal, under another key, fails here.
func TestASayingIsItsKeyOnceItsTextIsInTheCatalog(t *testing.T) {
	cat := apptest.New(t, builtin.Catalogue()).App.Catalog()
	keys := cat.Keys(locale.English)
	slices.Sort(keys)
	for _, s := range sayings {
		if cat.Has(locale.English, s.key) {
			continue
		}
		ns, _, _ := strings.Cut(s.key, ".")
		for _, k := range keys {
			if strings.HasPrefix(k, ns+".") && strings.HasPrefix(cat.Text(locale.English, k, nil), s.english) {
				t.Errorf("%s reads %q as the saying %s: name %s in texts.go", k, s.english, s.key, k)
			}
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
