package webapp

import (
	"embed"
	"encoding/json"
	"fmt"

	"github.com/BurntSushi/toml"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// The page's words: locales/en.toml and vi.toml, one flat table each,
// {{.Name}} placeholders only. The page gets them at the head of its
// look.js (pageScript) and picks the viewer's language; the tests check
// them as any module's catalog (pageTexts).
//
//go:embed locales/*.toml
var pageFiles embed.FS

// pageTexts is the page's catalog, namespace "page".
var pageTexts = locale.NewCatalog(locale.Source{Namespace: "page", FS: pageFiles})

// pageScript is window.miniAppTexts: each language's texts by key, as
// the files have them (the page fills the placeholders).
func pageScript() ([]byte, error) {
	all := map[locale.Lang]map[string]string{}
	for _, lang := range locale.Langs {
		name := locale.Dir + "/" + string(lang) + ".toml"
		var texts map[string]string
		if _, err := toml.DecodeFS(pageFiles, name, &texts); err != nil {
			return nil, fmt.Errorf("webapp: %s: %w", name, err)
		}
		all[lang] = texts
	}
	b, err := json.Marshal(all)
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window.miniAppTexts = "), b...), ";\n"...), nil
}
