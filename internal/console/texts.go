package console

import (
	"embed"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// files are the console's own words: locales/en.toml and vi.toml.
//
//go:embed locales/*.toml
var files embed.FS

// texts is the console's catalog, parsed at its first line printed.
var texts = locale.NewCatalog(locale.Source{Namespace: "console", FS: files})

// say is the console's text key in the language its user's client is set
// to (Lang, as Telegram's language_code): what the bot says and what the
// console says around it read alike.
func (m *Messenger) say(key string, args ...map[string]any) string {
	var a map[string]any
	if len(args) > 0 {
		a = args[0]
	}
	return texts.Text(locale.FromTelegram(m.Lang), "console."+key, a)
}
