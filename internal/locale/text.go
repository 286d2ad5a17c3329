package locale

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/message/catalog"
)

// pluralForms are CLDR's plural categories, as a file names them.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// text is one key's text in one language: a single form ("other"), or
// one per plural category.
type text struct {
	forms  map[string]string
	plural bool
	names  []string // the placeholders it reads, sorted, each once
	bad    []string // what in it is not a placeholder the catalog prints
}

// collect flattens a file's tables into out: a string is a text, a table
// with "other" a plural text, any other table a namespace of keys.
func collect(raw map[string]any, prefix string, out map[string]*text) error {
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[prefix+k] = newText(map[string]string{"other": v}, false)
		case map[string]any:
			if _, ok := v["other"]; !ok {
				if err := collect(v, prefix+k+".", out); err != nil {
					return err
				}
				continue
			}
			forms := map[string]string{}
			for f, s := range v {
				str, ok := s.(string)
				if !ok || !slices.Contains(pluralForms, f) {
					return fmt.Errorf("%s%s.%s: not a plural form's text", prefix, k, f)
				}
				forms[f] = str
			}
			out[prefix+k] = newText(forms, true)
		default:
			return fmt.Errorf("%s%s: neither a text nor a table", prefix, k)
		}
	}
	return nil
}

func newText(forms map[string]string, plural bool) *text {
	t := &text{forms: forms, plural: plural}
	for _, s := range forms {
		for _, p := range scan(s) {
			if p.name == "" {
				t.bad = append(t.bad, p.raw)
				continue
			}
			t.names = append(t.names, p.name)
		}
	}
	if plural && !slices.Contains(t.names, CountArg) {
		t.names = append(t.names, CountArg) // picks the form though no form prints it
	}
	slices.Sort(t.names)
	t.names = slices.Compact(t.names)
	return t
}

// piece is a {{ }} of a text: name is set for a plain {{.Name}}.
type piece struct {
	raw, name  string
	start, end int
}

// scan finds s's {{ }} pieces. Only {{.Name}} (spaces allowed) is a
// placeholder: the catalog prints values, it runs no template.
func scan(s string) []piece {
	var out []piece
	for i := 0; ; {
		open := strings.Index(s[i:], "{{")
		if open < 0 {
			return out
		}
		open += i
		end := strings.Index(s[open:], "}}")
		if end < 0 {
			return append(out, piece{raw: s[open:], start: open, end: len(s)})
		}
		end += open + 2
		p := piece{raw: s[open:end], start: open, end: end}
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(p.raw, "{{"), "}}"))
		if name, ok := strings.CutPrefix(inner, "."); ok && isName(name) {
			p.name = name
		}
		out = append(out, p)
		i = end
	}
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// format is s as a golang.org/x/text format: each {{.Name}} the argument
// at its place in t.names, a literal % escaped.
func (t *text) format(s string) string {
	var b strings.Builder
	last := 0
	for _, p := range scan(s) {
		b.WriteString(strings.ReplaceAll(s[last:p.start], "%", "%%"))
		if i := slices.Index(t.names, p.name); p.name != "" && i >= 0 {
			b.WriteString("%[" + strconv.Itoa(i+1) + "]v")
		} else {
			b.WriteString(strings.ReplaceAll(p.raw, "%", "%%"))
		}
		last = p.end
	}
	b.WriteString(strings.ReplaceAll(s[last:], "%", "%%"))
	return b.String()
}

// compile is t as the library's message: a plural text selects its form
// by the Count argument with the language's CLDR rules.
func (t *text) compile() catalog.Message {
	if !t.plural {
		return catalog.String(t.format(t.forms["other"]))
	}
	var cases []any
	for _, f := range pluralForms {
		if s, ok := t.forms[f]; ok {
			cases = append(cases, f, t.format(s))
		}
	}
	return plural.Selectf(slices.Index(t.names, CountArg)+1, "", cases...)
}

// args are t's arguments in its order: the Count as given (the printer
// reads it as the language's number), every other value as fmt prints it.
func (t *text) args(m map[string]any) []any {
	out := make([]any, len(t.names))
	for i, n := range t.names {
		v, ok := m[n]
		switch {
		case !ok:
			out[i] = ""
		case n == CountArg:
			out[i] = v
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}
