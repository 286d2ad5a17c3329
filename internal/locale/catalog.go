package locale

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strings"
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

// Catalog is every source's texts. A namespace's file in a language is
// parsed at the first lookup of one of its keys in that language, not
// when built: a process that never speaks (a cold Lambda serving a health
// check) never pays for them, and one that answers a command pays for that
// module's texts in the asker's language only.
type Catalog struct {
	units map[string]map[Lang]func() (*unit, error) // by namespace
	names []string                                  // the namespaces, in their sources' order
	said  said                                      // the texts as patterns a reply is read against (match.go)
}

// unit is one namespace's texts in one language, printed by the
// golang.org/x/text library: it picks a text's CLDR plural form and prints
// it; the files keep go-i18n's TOML shape ({{.Name}} placeholders,
// one/other tables), which translators read.
type unit struct {
	keys    map[string]*text
	printer *message.Printer
}

// NewCatalog gathers sources; nothing is read until a lookup.
func NewCatalog(sources ...Source) *Catalog {
	c := &Catalog{units: map[string]map[Lang]func() (*unit, error){}}
	for _, s := range sources {
		if _, ok := c.units[s.Namespace]; ok {
			continue
		}
		c.names = append(c.names, s.Namespace)
		c.units[s.Namespace] = map[Lang]func() (*unit, error){}
		for _, lang := range Langs {
			c.units[s.Namespace][lang] = sync.OnceValues(func() (*unit, error) {
				return parseUnit(sources, s.Namespace, lang)
			})
		}
	}
	return c
}

// parseUnit reads namespace ns's files in lang (every source under ns).
func parseUnit(sources []Source, ns string, lang Lang) (*unit, error) {
	u := &unit{keys: map[string]*text{}}
	tag := language.Make(string(lang))
	b := catalog.NewBuilder(catalog.Fallback(tag))
	var errs []error
	for _, s := range sources {
		if s.Namespace != ns {
			continue
		}
		texts, err := parseFile(s.FS, lang)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ns, err))
			continue
		}
		for key, t := range texts {
			key = ns + "." + key
			if err := b.Set(tag, key, t.compile()); err != nil {
				errs = append(errs, fmt.Errorf("%s/%s: %w", key, lang, err))
				continue
			}
			u.keys[key] = t
		}
	}
	u.printer = message.NewPrinter(tag, message.Catalog(b))
	return u, errors.Join(errs...)
}

// unit is key's namespace's texts in lang (nil: no such namespace).
func (c *Catalog) unit(lang Lang, key string) *unit {
	ns, _, _ := strings.Cut(key, ".")
	load, ok := c.units[ns][lang]
	if !ok {
		return nil
	}
	u, _ := load()
	return u
}

// loaded is every unit, for the catalog's checks.
type loaded struct {
	keys map[Lang]map[string]*text
}

func (c *Catalog) load() (*loaded, error) {
	l := &loaded{keys: map[Lang]map[string]*text{}}
	var errs []error
	for _, lang := range Langs {
		l.keys[lang] = map[string]*text{}
		for _, ns := range c.names {
			u, err := c.units[ns][lang]()
			if err != nil {
				errs = append(errs, err)
			}
			maps.Copy(l.keys[lang], u.keys)
		}
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
	u := c.unit(lang.Or(English), key)
	if u == nil {
		return false
	}
	_, ok := u.keys[key]
	return ok
}

// Text renders key in lang with args (a text's {{.Name}} values);
// args[CountArg], when given, picks the plural form and reads as a number
// of lang; the others read as fmt prints them. A key the catalog lacks in
// lang reads in English; one it lacks altogether reads as the key itself,
// which the catalog tests forbid.
func (c *Catalog) Text(lang Lang, key string, args map[string]any) string {
	for _, l := range []Lang{lang.Or(English), English} {
		if u := c.unit(l, key); u != nil {
			if t, ok := u.keys[key]; ok {
				return u.printer.Sprintf(key, t.args(args)...)
			}
		}
	}
	return key
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
