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

// refusedFor is an adapter's refusal for rights naming the kind refused.
type refusedFor string

func (r refusedFor) Error() string       { return "not enough rights to send " + string(r) }
func (r refusedFor) Unwrap() error       { return app.ErrNoRights }
func (r refusedFor) LackedRight() string { return string(r) }

// A chart refused for rights is said in the chat's language, the right
// named as the language names it.
func TestARefusalForRightsIsSaidInTheChatsLanguage(t *testing.T) {
	core := fstest.MapFS{
		"locales/en.toml": {Data: []byte("no_right = \"I may not send {{.Right}} here.\"\n[right]\nphotos = \"photos\"\n")},
		"locales/vi.toml": {Data: []byte("no_right = \"Mình không được phép gửi {{.Right}} ở đây.\"\n[right]\nphotos = \"ảnh\"\n")},
	}
	cat := locale.NewCatalog(locale.Source{Namespace: "core", FS: core})
	vi := app.NewWords(cat, "chart", app.Vietnamese)
	tests := []struct {
		err  error
		want string
		ok   bool
	}{
		{refusedFor("photos"), "Mình không được phép gửi ảnh ở đây.", true},
		{refusedFor("video notes"), "Mình không được phép gửi video notes ở đây.", true}, // a kind the catalog lacks: Telegram's word
		{refusedFor("text messages"), "", false},
		{app.ErrChatGone, "", false},
	}
	for _, tt := range tests {
		if got, ok := vi.NoRightText(tt.err); got != tt.want || ok != tt.ok {
			t.Errorf("NoRightText(%v) = %q, %v; want %q, %v", tt.err, got, ok, tt.want, tt.ok)
		}
	}
}
