package trading

import (
	"embed"
	"io/fs"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// shared are the words every market says alike (trades, refusals, the
// stats report, boards, charts, the asking buy and sell), all under the
// table "trading".
//
//go:embed locales/*.toml
var shared embed.FS

// Texts are a market module's Module.Texts: its own locale files (its
// command descriptions and the words its Kit names by key) with the
// shared ones appended, so a request's words say "trading.bought" in
// every market. Files are joined when the catalog reads them, at its
// first lookup. Texts(nil) are the shared words alone.
func Texts(own fs.FS) fs.FS { return locale.Join(own, shared) }
