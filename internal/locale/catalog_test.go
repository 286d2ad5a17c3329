package locale_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/miti99bot/miti99bot/internal/locale"
)

func files(en, vi string) fstest.MapFS {
	return fstest.MapFS{
		"locales/en.toml": {Data: []byte(en)},
		"locales/vi.toml": {Data: []byte(vi)},
	}
}

func TestACatalogIsCompleteOnlyWithEveryKeyInBothLanguagesAlike(t *testing.T) {
	tests := []struct {
		name, en, vi string
		want         string // a problem's start; "" for none
	}{
		{"complete", "a = \"Hi {{.Name}}\"\n[n]\none = \"{{.Count}} try\"\nother = \"{{.Count}} tries\"\n",
			"a = \"Chào {{ .Name }}\"\n[n]\nother = \"{{.Count}} lượt\"\n", ""},
		{"a key missing in Vietnamese", "a = \"A\"\nb = \"B\"\n", "a = \"A\"\n", "m.b: missing in vi"},
		{"a key missing in English", "a = \"A\"\n", "a = \"A\"\nb = \"B\"\n", "m.b: missing in en"},
		{"a placeholder differs", "a = \"Hi {{.Name}}\"\n", "a = \"Chào {{.Ten}}\"\n", "m.a: placeholders"},
		{"plural in one language only", "[n]\none = \"{{.Count}} try\"\nother = \"{{.Count}} tries\"\n", "n = \"{{.Count}} lượt\"\n", "m.n: plural"},
		{"an English plural without one", "[n]\nother = \"{{.Count}} tries\"\n", "[n]\nother = \"{{.Count}} lượt\"\n", "m.n: an English plural"},
		{"a file that does not parse", "a = \"A\n", "a = \"A\"\n", "m: "},
		{"a sentence left in English", "a = \"Not done: {{.Why}}\"\n", "a = \"Not done: {{.Why}}\"\n", "m.a: the same words in vi"},
		{"a plural form left in English", "[n]\none = \"{{.Count}} try left\"\nother = \"{{.Count}} tries left\"\n", "[n]\nother = \"{{.Count}} tries left\"\n", "m.n: the same words in vi"},
		{"a name, a word or a command alone may read alike", "a = \"Binance\"\nb = \"{{.Sym}}: /coin_chart {{.Sym}} 7d\"\nc = \"OK\"\n",
			"a = \"Binance\"\nb = \"{{.Sym}}: /coin_chart {{.Sym}} 7d\"\nc = \"OK\"\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := locale.NewCatalog(locale.Source{Namespace: "m", FS: files(tt.en, tt.vi)})
			got := c.Check()
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("problems %q, want none", got)
				}
				return
			}
			if !slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, tt.want) }) {
				t.Fatalf("problems %q, want one starting %q", got, tt.want)
			}
		})
	}
}

func TestATextMissingInALanguageReadsInEnglishAndAnUnknownKeyAsItself(t *testing.T) {
	c := locale.NewCatalog(locale.Source{Namespace: "m", FS: files("a = \"A\"\nb = \"B\"\n", "a = \"Á\"\n")})
	for _, tt := range []struct {
		lang      locale.Lang
		key, want string
	}{
		{locale.Vietnamese, "m.a", "Á"},
		{locale.Vietnamese, "m.b", "B"},
		{locale.English, "m.zz", "m.zz"},
		{"fr", "m.a", "A"},
	} {
		if got := c.Text(tt.lang, tt.key, nil); got != tt.want {
			t.Errorf("Text(%s, %s) = %q, want %q", tt.lang, tt.key, got, tt.want)
		}
	}
}

func TestTelegramsLanguageCodeChoosesVietnameseOnlyForVi(t *testing.T) {
	for code, want := range map[string]locale.Lang{"vi": locale.Vietnamese, "vi-VN": locale.Vietnamese, "VI": locale.Vietnamese,
		"en": locale.English, "en-US": locale.English, "": locale.English, "fr": locale.English, "video": locale.English} {
		if got := locale.FromTelegram(code); got != want {
			t.Errorf("FromTelegram(%q) = %s, want %s", code, got, want)
		}
	}
}

func TestACatalogReadsNothingUntilItsFirstLookup(t *testing.T) {
	fsys := &countingFS{MapFS: files("a = \"A\"\n", "a = \"Á\"\n")}
	c := locale.NewCatalog(locale.Source{Namespace: "m", FS: fsys})
	if fsys.opened != 0 {
		t.Fatalf("built catalog opened %d files", fsys.opened)
	}
	c.Text(locale.English, "m.a", nil)
	c.Text(locale.Vietnamese, "m.a", nil)
	if fsys.opened != 2 {
		t.Fatalf("two lookups opened %d files, want each file once", fsys.opened)
	}
}

type countingFS struct {
	fstest.MapFS
	opened int
}

func (f *countingFS) ReadFile(name string) ([]byte, error) {
	f.opened++
	return f.MapFS.ReadFile(name)
}

func TestATextPicksItsPluralFormByCountAndReadsCountAsItsLanguagesNumber(t *testing.T) {
	c := locale.NewCatalog(locale.Source{Namespace: "m", FS: files(
		"id = \"chat {{.Chat}}\"\n[won]\none = \"{{.Name}} won in {{.Count}} try (100%)\"\nother = \"{{.Name}} won in {{.Count}} tries\"\n",
		"id = \"chat {{.Chat}}\"\n[won]\nother = \"{{.Name}} thắng sau {{.Count}} lượt\"\n")})
	for _, tt := range []struct {
		lang locale.Lang
		key  string
		args map[string]any
		want string
	}{
		{locale.English, "m.won", map[string]any{"Name": "An", "Count": 1}, "An won in 1 try (100%)"},
		{locale.English, "m.won", map[string]any{"Name": "An", "Count": 1234}, "An won in 1,234 tries"},
		{locale.Vietnamese, "m.won", map[string]any{"Name": "An", "Count": 1234}, "An thắng sau 1.234 lượt"},
		// Any other value reads as fmt prints it: a chat id is no amount.
		{locale.Vietnamese, "m.id", map[string]any{"Chat": int64(-1001000000002)}, "chat -1001000000002"},
	} {
		if got := c.Text(tt.lang, tt.key, tt.args); got != tt.want {
			t.Errorf("Text(%s, %s, %v) = %q, want %q", tt.lang, tt.key, tt.args, got, tt.want)
		}
	}
}

func TestACatalogRunsNoTemplateAndSaysSo(t *testing.T) {
	c := locale.NewCatalog(locale.Source{Namespace: "m", FS: files(
		"a = \"{{if .X}}yes{{end}}\"\n", "a = \"{{if .X}}có{{end}}\"\n")})
	got := c.Check()
	if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, "is not a {{.Name}} placeholder") }) {
		t.Fatalf("problems %q, want the template action named", got)
	}
}

func TestALookupReadsOnlyItsNamespacesFileInItsLanguage(t *testing.T) {
	m := &countingFS{MapFS: files("a = \"A\"\n", "a = \"Á\"\n")}
	n := &countingFS{MapFS: files("b = \"B\"\n", "b = \"Bê\"\n")}
	c := locale.NewCatalog(locale.Source{Namespace: "m", FS: m}, locale.Source{Namespace: "n", FS: n})
	if got := c.Text(locale.Vietnamese, "m.a", nil); got != "Á" {
		t.Fatalf("m.a in vi = %q", got)
	}
	if m.opened != 1 || n.opened != 0 {
		t.Fatalf("a lookup of m.a in vi opened %d of m's files and %d of n's, want m's vi file only", m.opened, n.opened)
	}
}
