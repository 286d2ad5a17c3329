package locale

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
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
	said    said // the texts as patterns a reply is read against (match.go)
}

type loaded struct {
	keys     map[Lang]map[string]*text
	printers map[Lang]*message.Printer
}

// NewCatalog gathers sources; nothing is read until a lookup.
func NewCatalog(sources ...Source) *Catalog {
	c := &Catalog{sources: sources}
	c.load = sync.OnceValues(c.parse)
	return c
}

// parse reads every source's files into one golang.org/x/text catalog:
// the library picks a text's CLDR plural form and prints it; the files
// keep go-i18n's TOML shape ({{.Name}} placeholders, one/other tables),
// which translators read.
func (c *Catalog) parse() (*loaded, error) {
	l := &loaded{keys: map[Lang]map[string]*text{}, printers: map[Lang]*message.Printer{}}
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	var errs []error
	for _, lang := range Langs {
		l.keys[lang] = map[string]*text{}
		tag := language.Make(string(lang))
		for _, s := range c.sources {
			texts, err := parseFile(s.FS, lang)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", s.Namespace, err))
				continue
			}
			for key, t := range texts {
				key = s.Namespace + "." + key
				if err := b.Set(tag, key, t.compile()); err != nil {
					errs = append(errs, fmt.Errorf("%s/%s: %w", key, lang, err))
					continue
				}
				l.keys[lang][key] = t
			}
		}
		l.printers[lang] = message.NewPrinter(tag, message.Catalog(b))
	}
	return l, errors.Join(errs...)
}

// parseFile reads fsys's Dir/<lang>.toml, keys not namespaced (a nested
// table's keys joined by "."). A missing file is no texts.
func parseFile(fsys fs.FS, lang Lang) (map[string]*text, error) {
	name := Dir + "/" + string(lang) + ".toml"
	buf, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := toml.Unmarshal(buf, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := map[string]*text{}
	if err := collect(raw, "", out); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
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

// Text renders key in lang with args (a text's {{.Name}} values);
// args[CountArg], when given, picks the plural form and reads as a number
// of lang; the others read as fmt prints them. A key the catalog lacks in
// lang reads in English; one it lacks altogether reads as the key itself,
// which the catalog tests forbid.
func (c *Catalog) Text(lang Lang, key string, args map[string]any) string {
	l, _ := c.load()
	lang = lang.Or(English)
	t, ok := l.keys[lang][key]
	if !ok {
		lang = English
		if t, ok = l.keys[lang][key]; !ok {
			return key
		}
	}
	return l.printers[lang].Sprintf(key, t.args(args)...)
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
