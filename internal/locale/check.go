package locale

import (
	"fmt"
	"regexp"
	"slices"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

// placeholder is a template's {{.Name}} (or {{ .Name }}, or a pipeline
// starting with it), compiled at the first check, not at start.
var placeholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`{{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)`)
})

// Check is what makes the catalog incomplete, one line each: a source
// that does not parse, a key one language has and another lacks, a key
// plural in one language and not in another, or one whose placeholders
// differ between languages; an English plural lacks "one" or "other".
// nil: complete.
func (c *Catalog) Check() []string {
	l, err := c.load()
	var out []string
	if err != nil {
		out = append(out, err.Error())
	}
	for _, key := range unionKeys(l) {
		ref := l.keys[English][key]
		for _, lang := range Langs {
			m, ok := l.keys[lang][key]
			if !ok {
				out = append(out, fmt.Sprintf("%s: missing in %s", key, lang))
				continue
			}
			if ref == nil || lang == English {
				continue
			}
			if l.plural[lang][key] != l.plural[English][key] {
				out = append(out, fmt.Sprintf("%s: plural in one of %s and %s only", key, English, lang))
			}
			if a, b := placeholders(ref), placeholders(m); !slices.Equal(a, b) {
				out = append(out, fmt.Sprintf("%s: placeholders %v in %s, %v in %s", key, a, English, b, lang))
			}
		}
		if ref != nil && l.plural[English][key] && (ref.One == "" || ref.Other == "") {
			out = append(out, fmt.Sprintf("%s: an English plural needs \"one\" and \"other\"", key))
		}
	}
	return out
}

func unionKeys(l *loaded) []string {
	seen := map[string]bool{}
	var keys []string
	for _, lang := range Langs {
		for k := range l.keys[lang] {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// placeholders are the names m's forms read, sorted, each once.
func placeholders(m *goi18n.Message) []string {
	var names []string
	for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		for _, g := range placeholder().FindAllStringSubmatch(form, -1) {
			names = append(names, g[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
