package locale

import (
	"strings"
	"sync"
	"unicode"
)

// pattern is a text as a reader of replies sees it: its literal pieces in
// order, a placeholder (any value, maybe none) between each two.
type pattern []string

func newPattern(s string) pattern {
	var p pattern
	last := 0
	for _, pc := range scan(s) {
		p = append(p, s[last:pc.start])
		last = pc.end
	}
	return append(p, s[last:])
}

// match reports whether s is the text with some value at each placeholder.
func (p pattern) match(s string) bool {
	if len(p) == 1 {
		return s == p[0]
	}
	rest, ok := strings.CutPrefix(s, p[0])
	if !ok {
		return false
	}
	if rest, ok = strings.CutSuffix(rest, p[len(p)-1]); !ok {
		return false
	}
	for _, lit := range p[1 : len(p)-1] {
		i := strings.Index(rest, lit)
		if i < 0 {
			return false
		}
		rest = rest[i+len(lit):]
	}
	return true
}

// tells reports whether the text tells its language: two words of its
// own at least, outside its placeholders. One word ("gold", "OK") may be
// a name as well as a text.
func (p pattern) tells() bool {
	words := 0
	for _, lit := range p {
		words += len(strings.FieldsFunc(lit, func(r rune) bool { return !unicode.IsLetter(r) }))
	}
	return words >= 2
}

// said is every key's patterns (one per plural form) in each language,
// and those that tell their language, built at the first Says or Speaks:
// only a reader of replies (a test, the simulation) asks, never the bot.
type said struct {
	once    sync.Once
	keys    map[Lang]map[string][]pattern
	tellers map[Lang][]pattern
}

func (c *Catalog) patterns() *said {
	c.said.once.Do(func() {
		l, _ := c.load()
		c.said.keys, c.said.tellers = map[Lang]map[string][]pattern{}, map[Lang][]pattern{}
		for lang, texts := range l.keys {
			m := map[string][]pattern{}
			for key, t := range texts {
				for _, f := range pluralForms {
					if s, ok := t.forms[f]; ok {
						p := newPattern(s)
						m[key] = append(m[key], p)
						if p.tells() {
							c.said.tellers[lang] = append(c.said.tellers[lang], p)
						}
					}
				}
			}
			c.said.keys[lang] = m
		}
	})
	return &c.said
}

// Says reports whether s is key's text in some language, whatever values
// its placeholders read: a reader of replies recognises a text in every
// language the bot speaks, not in the English it was written in.
func (c *Catalog) Says(key, s string) bool {
	for _, lang := range Langs {
		for _, p := range c.patterns().keys[lang][key] {
			if p.match(s) {
				return true
			}
		}
	}
	return false
}

// Speaks is the languages in which s is some key's text, whatever values
// its placeholders read (none: s is no text of the catalog). A text of
// fewer than two words of its own ("{{.Name}}: {{.Value}}", "gold")
// speaks no language: a reply may say as much in any.
func (c *Catalog) Speaks(s string) []Lang {
	var out []Lang
	for _, lang := range Langs {
		for _, p := range c.patterns().tellers[lang] {
			if p.match(s) {
				out = append(out, lang)
				break
			}
		}
	}
	return out
}
