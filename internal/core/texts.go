package core

import (
	"context"
	"embed"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// engineTexts are the engine's own words (namespace storage.CoreNamespace):
// its apologies, /help's frame, /cancel, time-outs.
//
//go:embed locales/*.toml
var engineTexts embed.FS

// buildCatalog gathers the engine's texts and every module's; nothing is
// parsed until the first lookup.
func buildCatalog(mods []*app.Module) *locale.Catalog {
	srcs := []locale.Source{{Namespace: storage.CoreNamespace, FS: engineTexts}}
	for _, m := range mods {
		if m.Texts != nil {
			srcs = append(srcs, locale.Source{Namespace: m.Name, FS: m.Texts})
		}
	}
	return locale.NewCatalog(srcs...)
}

// Catalog is every text the running modules and the engine say.
func (a *App) Catalog() *locale.Catalog { return a.cat() }

func (a *App) cat() *locale.Catalog { return a.reg.catalog }

// say is the engine's text key in lang.
func (a *App) say(lang app.Lang, key string, args ...app.Args) string {
	return app.NewWords(a.cat(), storage.CoreNamespace, lang).T(key, args...)
}

// words are module's texts in lang, for a request.
func (a *App) words(module string, lang app.Lang) app.Words {
	return app.NewWords(a.cat(), module, lang)
}

// rewords are module's texts for the reader of w: its language and clock.
func (a *App) rewords(module string, w app.Words) app.Words {
	return a.words(module, w.Lang).InZone(w.Zone())
}

// moduleTexts are a module's Deps.Texts.
type moduleTexts struct {
	a      *App
	module string
}

var _ app.Texts = moduleTexts{}

func (t moduleTexts) In(lang app.Lang) app.Words { return t.a.words(t.module, lang) }

func (t moduleTexts) Chat(ctx context.Context, chat int64) (app.Words, error) {
	rec, err := t.a.langRecordOf(ctx, chat)
	return t.a.words(t.module, rec.lang(chat > 0, "")).InZone(rec.zone()), err
}

func (t moduleTexts) Choose(ctx context.Context, chat int64, lang app.Lang) error {
	if !lang.Valid() {
		return fmt.Errorf("choose %q for chat %d: not a language the bot speaks", lang, chat)
	}
	return t.a.ChooseLang(ctx, chat, lang)
}

func (t moduleTexts) ChooseZone(ctx context.Context, chat int64, zone string) error {
	if _, ok := locale.ParseZone(zone); !ok {
		return fmt.Errorf("choose zone %q for chat %d: not a zone", zone, chat)
	}
	return setField(ctx, t.a, chat, func(r *langRecord) *string { return &r.Zone }, zone)
}
