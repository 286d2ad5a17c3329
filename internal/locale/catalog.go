package locale

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Dir is where a source keeps its files: Dir/en.toml, Dir/vi.toml, one
// per language the bot speaks.
const Dir = "locales"

// CountArg is the argument that picks a text's plural form (CLDR: English
// has "one" and "other", Vietnamese "other" only).
const CountArg = "Count"

// Source is one namespace's texts: FS holds Dir/<lang>.toml, whose keys
// the catalog knows as Namespace + "." + key.
type Source struct {
	Namespace string
	FS        fs.FS
}

// Catalog is every source's texts. It parses them at its first lookup,
// not when built, so a process that never speaks (a cold Lambda serving
// a health check) never pays for them.
type Catalog struct {
	sources []Source
	load    func() (*loaded, error)
}

type loaded struct {
	bundle     *goi18n.Bundle
	localizers map[Lang]*goi18n.Localizer
	keys       map[Lang]map[string]*goi18n.Message
	plural     map[Lang]map[string]bool // written with plural forms
}

// NewCatalog gathers sources; nothing is read until a lookup.
func NewCatalog(sources ...Source) *Catalog {
	c := &Catalog{sources: sources}
	c.load = sync.OnceValues(c.parse)
	return c
}

func (c *Catalog) parse() (*loaded, error) {
	l := &loaded{
		bundle:     goi18n.NewBundle(language.English),
		localizers: map[Lang]*goi18n.Localizer{},
		keys:       map[Lang]map[string]*goi18n.Message{},
		plural:     map[Lang]map[string]bool{},
	}
	var errs []error
	for _, lang := range Langs {
		l.keys[lang], l.plural[lang] = map[string]*goi18n.Message{}, map[string]bool{}
		for _, s := range c.sources {
			msgs, plural, err := parseFile(s.FS, lang)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", s.Namespace, err))
				continue
			}
			for _, m := range msgs {
				l.plural[lang][s.Namespace+"."+m.ID] = plural[m.ID]
				m.ID = s.Namespace + "." + m.ID
				l.keys[lang][m.ID] = m
			}
			if err := l.bundle.AddMessages(language.Make(string(lang)), msgs...); err != nil {
				errs = append(errs, fmt.Errorf("%s/%s: %w", s.Namespace, lang, err))
			}
		}
		// A text missing in a language reads in English rather than as
		// its key; the catalog's test fails before that ships.
		l.localizers[lang] = goi18n.NewLocalizer(l.bundle, string(lang), string(English))
	}
	return l, errors.Join(errs...)
}

// parseFile reads fsys's Dir/<lang>.toml (keys not namespaced), and
// which keys are written with plural forms (a table with "other"). A
// missing file is no texts.
func parseFile(fsys fs.FS, lang Lang) ([]*goi18n.Message, map[string]bool, error) {
	name := Dir + "/" + string(lang) + ".toml"
	buf, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	msgs, err := goi18n.ParseMessageBytes(buf, toml.Unmarshal)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(buf, &raw); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	plural := map[string]bool{}
	markPlural(raw, "", plural)
	return msgs, plural, nil
}

func markPlural(raw map[string]any, prefix string, out map[string]bool) {
	for k, v := range raw {
		sub, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := sub["other"]; ok {
			out[prefix+k] = true
			continue
		}
		markPlural(sub, prefix+k+".", out)
	}
}

// Err is what parsing the sources found wrong (nil: nothing). Lookups
// still answer from what parsed.
func (c *Catalog) Err() error {
	_, err := c.load()
	return err
}

// Has reports whether key has a text in lang.
func (c *Catalog) Has(lang Lang, key string) bool {
	l, _ := c.load()
	_, ok := l.keys[lang.Or(English)][key]
	return ok
}

// Text renders key in lang with args (a template's {{.Name}} values);
// args[CountArg], when given, picks the plural form. A key the catalog
// lacks in lang reads in English; one it lacks altogether reads as the key
// itself, which the catalog tests forbid.
func (c *Catalog) Text(lang Lang, key string, args map[string]any) string {
	l, _ := c.load()
	lc := &goi18n.LocalizeConfig{MessageID: key, TemplateData: args}
	if n, ok := args[CountArg]; ok {
		lc.PluralCount = n
	}
	loc := l.localizers[lang.Or(English)]
	if loc == nil {
		return key
	}
	s, err := loc.Localize(lc)
	if err != nil && s == "" {
		return key
	}
	return s
}

// Keys are the namespaced keys lang has, for the catalog's tests.
func (c *Catalog) Keys(lang Lang) []string {
	l, _ := c.load()
	out := make([]string, 0, len(l.keys[lang]))
	for k := range l.keys[lang] {
		out = append(out, k)
	}
	return out
}
