package webapp_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/webapp"
)

// The page's words are one catalog, complete in both languages by the Go
// catalogs' own check.
func TestThePagesTextsAreInEnglishAndVietnameseAlike(t *testing.T) {
	if problems := webapp.PageTexts.Check(); len(problems) != 0 {
		t.Fatalf("the page's catalog is incomplete:\n%s", strings.Join(problems, "\n"))
	}
}

// Every key the page names is in the catalog and every catalog key is
// named; the HTML itself holds no word a reader sees.
func TestThePageSaysNothingOutsideItsCatalog(t *testing.T) {
	var used []string
	for _, name := range []string{"page/index.html", "page/app.js", "page/look.js"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`data-t(?:-aria)?="([a-z0-9_.]+)"|\bt\("([a-z0-9_.]+)"`).FindAllStringSubmatch(string(b), -1) {
			used = append(used, "page."+m[1]+m[2])
		}
		if name == "page/index.html" {
			body := regexp.MustCompile(`(?s)<body>.*</body>`).FindString(string(b))
			if words := regexp.MustCompile(`>\s*([^<]*\pL[^<]*?)\s*<`).FindAllStringSubmatch(body, -1); len(words) != 0 {
				t.Errorf("index.html writes words outside the catalog: %q", words)
			}
			if attrs := regexp.MustCompile(`\s(?:aria-label|title|alt)="[^"]+"`).FindAllString(body, -1); len(attrs) != 0 {
				t.Errorf("index.html labels outside the catalog: %q", attrs)
			}
		}
	}
	keys := webapp.PageTexts.Keys(locale.English)
	for _, k := range used {
		if !slices.Contains(keys, k) {
			t.Errorf("the page names %s, which its catalog lacks", k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(used, k) {
			t.Errorf("the catalog's %s is named nowhere on the page", k)
		}
	}
}
