package app_test

import (
	"testing"
	"testing/fstest"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

func TestWordsRenderTheModulesKeyInItsLanguageWithPluralAndTheEnginesShared(t *testing.T) {
	mod := fstest.MapFS{
		"locales/en.toml": {Data: []byte("hello = \"Hello, {{.Name}}\"\n[won]\none = \"Won in {{.Count}} try\"\nother = \"Won in {{.Count}} tries\"\n")},
		"locales/vi.toml": {Data: []byte("hello = \"Chào {{.Name}}\"\n[won]\nother = \"Thắng sau {{.Count}} lượt\"\n")},
	}
	core := fstest.MapFS{
		"locales/en.toml": {Data: []byte("stale_button = \"This button no longer applies.\"\n")},
		"locales/vi.toml": {Data: []byte("stale_button = \"Nút này không còn dùng được nữa.\"\n")},
	}
	cat := locale.NewCatalog(locale.Source{Namespace: "core", FS: core}, locale.Source{Namespace: "game", FS: mod})
	en, vi := app.NewWords(cat, "game", app.English), app.NewWords(cat, "game", app.Vietnamese)
	tests := []struct{ got, want string }{
		{en.T("hello", app.Args{"Name": "An"}), "Hello, An"},
		{vi.T("hello", app.Args{"Name": "An"}), "Chào An"},
		{en.T("won", app.Args{"Count": 1}), "Won in 1 try"},
		{en.T("won", app.Args{"Count": 3}), "Won in 3 tries"},
		{vi.T("won", app.Args{"Count": 1}), "Thắng sau 1 lượt"},
		{vi.T(app.StaleButton), "Nút này không còn dùng được nữa."},
		{en.In(app.Vietnamese).T("hello", app.Args{"Name": "B"}), "Chào B"},
		{app.Words{}.T("hello"), "hello"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if err := cat.Err(); err != nil {
		t.Fatal(err)
	}
}
