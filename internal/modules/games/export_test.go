package games

import (
	"testing/fstest"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// Confirm is the confirmation keyboard, for tests.
func Confirm[G any, P Replayable[G]](p *Play[G, P], w app.Words, g *G, user int64) *models.InlineKeyboardMarkup {
	return p.confirm(w, g, user)
}

// SampleTexts are a game module's own files, as Texts joins them: a key,
// then a table, so a shared key landing in it would show.
var SampleTexts = fstest.MapFS{
	"locales/en.toml": {Data: []byte("game = \"Wordle\"\n[cmd]\nwordle = \"Play Wordle\"")},
	"locales/vi.toml": {Data: []byte("game = \"Wordle\"\n[cmd]\nwordle = \"Chơi Wordle\"")},
}

// WordsIn are the sample game's words in lang.
func WordsIn(lang app.Lang) app.Words {
	return app.NewWords(SampleCatalog(), "wordle", lang)
}

// SampleCatalog is the sample game's catalog.
func SampleCatalog() *locale.Catalog {
	return locale.NewCatalog(locale.Source{Namespace: "wordle", FS: Texts(SampleTexts)})
}
