package builtin_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
)

// TestEveryKeyAConvertedModuleSaysIsInItsCatalog reads the T("key") calls
// of every converted module's non-test source and fails on a key its
// catalog lacks in a language (such a text would read as its key). A
// "core." key is the engine's. A shared package's keys (sharedBy) are
// checked in each module that ships its texts.
func TestEveryKeyAConvertedModuleSaysIsInItsCatalog(t *testing.T) {
	cat := apptest.New(t, builtin.Catalogue()).App.Catalog()
	dirs, err := filepath.Glob("../*")
	if err != nil {
		t.Fatal(err)
	}
	said := 0
	for _, dir := range dirs {
		module := filepath.Base(dir)
		if slices.Contains(notYetConverted, module) {
			continue
		}
		namespaces, shared := sharedBy[module]
		if !shared {
			namespaces = []string{module}
		}
		for _, k := range keysSaid(t, dir) {
			said++
			for _, ns := range namespaces {
				full := ns + "." + k.key
				if strings.HasPrefix(k.key, "core.") {
					full = k.key
				}
				for _, lang := range locale.Langs {
					if !cat.Has(lang, full) {
						t.Errorf("%s: T(%q): %s has no %s", k.at, k.key, lang, full)
					}
				}
			}
		}
	}
	if said == 0 {
		t.Fatal("no T(key) call found: the walk is not where the modules are")
	}
}

// sharedBy are the packages that are no module but say texts in the
// namespace of each module that ships them (games.Texts, trading.Texts).
var sharedBy = map[string][]string{"games": {"wordle", "loldle", "twentyq"}, "trading": {"coin", "gold", "stock"}}

type keySaid struct{ at, key string }

func keysSaid(t *testing.T, dir string) []keySaid {
	t.Helper()
	fset := token.NewFileSet()
	var out []keySaid
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "T" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				key, _ := strconv.Unquote(lit.Value)
				out = append(out, keySaid{at: fset.Position(lit.Pos()).String(), key: key})
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
