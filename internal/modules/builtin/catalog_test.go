package builtin_test

import (
	"slices"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
)

// TestEveryTextIsInEnglishAndVietnameseAlike builds every shipped module
// and fails on any key of theirs or the engine's that one language lacks,
// that is plural in one only, or whose placeholders differ.
func TestEveryTextIsInEnglishAndVietnameseAlike(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	for _, p := range b.App.Catalog().Check() {
		t.Error(p)
	}
}

// TestAConvertedModulesCommandsAreDescribedInEveryLanguage: /help and
// Telegram's menus read a converted module's command descriptions from
// its catalog (cmd.<name>), never the English fallback.
func TestAConvertedModulesCommandsAreDescribedInEveryLanguage(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	cat := b.App.Catalog()
	for _, mc := range b.App.Registry().Commands() {
		if slices.Contains(notYetConverted, mc.Module) {
			continue
		}
		for _, lang := range locale.Langs {
			if key := mc.Module + ".cmd." + mc.Name; !cat.Has(lang, key) {
				t.Errorf("/%s: %s has no %s", mc.Name, lang, key)
			}
		}
	}
}
