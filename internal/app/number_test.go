package app_test

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// A number typed so that it reads two ways is said in the reader's
// language with both readings, each as it reads one way; any other error
// is not the helper's to say.
func TestATypedNumberThatReadsTwoWaysIsSaidWithBothWritings(t *testing.T) {
	core := fstest.MapFS{
		"locales/en.toml": {Data: []byte("number_ambiguous = \"{{.Input}}: {{.Whole}} or {{.Decimal}}\"\n")},
		"locales/vi.toml": {Data: []byte("number_ambiguous = \"{{.Input}}: {{.Whole}} hoặc {{.Decimal}}\"\n")},
	}
	vi := app.NewWords(locale.NewCatalog(locale.Source{Namespace: "core", FS: core}), "game", app.Vietnamese)
	_, err := locale.ParseDecimal(app.Vietnamese, "1.500")
	if got, ok := vi.Ambiguous(err); !ok || got != `"1.500": 1500 hoặc 1,5` {
		t.Errorf("Ambiguous(%v) = %q, %v", err, got, ok)
	}
	if got, ok := vi.Ambiguous(errors.New("other")); ok {
		t.Errorf("Ambiguous(other) = %q, want none", got)
	}
}
