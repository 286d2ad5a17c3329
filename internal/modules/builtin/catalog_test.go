package builtin_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
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
