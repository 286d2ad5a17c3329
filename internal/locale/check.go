package locale

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Check is what makes the catalog incomplete, one line each: a source
// that does not parse, a key one language has and another lacks, a key
// plural in one language and not in another, one whose placeholders
// differ between languages, or one saying a sentence in the same words in
// both (untranslated); an English plural lacks "one" or "other"; a {{ }}
// that is not a plain {{.Name}}. nil: complete.
func (c *Catalog) Check() []string {
	l, err := c.load()
	var out []string
	if err != nil {
		out = append(out, err.Error())
	}
	for _, key := range unionKeys(l) {
		ref := l.keys[English][key]
		for _, lang := range Langs {
			t, ok := l.keys[lang][key]
			if !ok {
				out = append(out, fmt.Sprintf("%s: missing in %s", key, lang))
				continue
			}
			for _, b := range t.bad {
				out = append(out, fmt.Sprintf("%s: %q in %s is not a {{.Name}} placeholder", key, b, lang))
			}
			if ref == nil || lang == English {
				continue
			}
			if t.plural != ref.plural {
				out = append(out, fmt.Sprintf("%s: plural in one of %s and %s only", key, English, lang))
			}
			if !slices.Equal(ref.names, t.names) {
				out = append(out, fmt.Sprintf("%s: placeholders %v in %s, %v in %s", key, ref.names, English, t.names, lang))
			}
			if untranslated(ref, t) {
				out = append(out, fmt.Sprintf("%s: the same words in %s as in %s", key, lang, English))
			}
		}
		if ref != nil && ref.plural && (ref.forms["one"] == "" || ref.forms["other"] == "") {
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

// untranslated reports whether t says a sentence in ref's very words: a
// form that is a Sentence, the same in both.
func untranslated(ref, t *text) bool {
	for f, s := range t.forms {
		if ref.forms[f] == s && Sentence(s) {
			return true
		}
	}
	return false
}

// Sentence reports whether s says something in a language: two words of
// two letters or more outside its placeholders, commands, mentions and
// identifiers (chat_id). A name or a single word may read alike in both.
func Sentence(s string) bool {
	n := 0
	var b strings.Builder
	at := 0
	for _, p := range scan(s) {
		b.WriteString(s[at:p.start] + " ")
		at = p.end
	}
	b.WriteString(s[at:])
	for _, f := range strings.Fields(b.String()) {
		if strings.HasPrefix(f, "/") || strings.HasPrefix(f, "@") || strings.Contains(f, "_") {
			continue
		}
		for _, w := range strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len([]rune(w)) >= 2 {
				n++
			}
		}
	}
	return n >= 2
}
