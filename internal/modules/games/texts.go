package games

import (
	"embed"
	"io/fs"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// shared are the words of the shared flow: buttons, toasts, the give-up
// and stats replies, all under the table "games".
//
//go:embed locales/*.toml
var shared embed.FS

// Texts are a game module's Module.Texts: its own locale files with the
// shared flow's appended, so its catalog says "games.give_up" and the rest
// as every game does, and the catalog test checks them as the module's.
// The module's catalog must also have "game", how its replies name the
// game ("Wordle"). Files are joined when the catalog reads them, at its
// first lookup.
func Texts(own fs.FS) fs.FS { return locale.Join(own, shared) }
