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
	"unicode"
)

// notYetConverted are the module packages whose texts are still English
// literals (issue #50): each leaves this list when its catalog holds them,
// and a new package is never added to it.
var notYetConverted = []string{
	"builtin", "testkit",
}

// filesNotYetConverted are files of converted packages whose texts are
// still English literals, by their path under the modules: none now. A
// file is never added to it.
var filesNotYetConverted = []string{}

// sayers are the calls whose text a user reads, by the method's name, and
// which of their arguments is that text (-1: every argument after ctx).
var sayers = map[string]int{
	"Reply": 1, "ReplyHTML": 1, "Answer": 1, "Edit": 1, "EditText": 1,
}

// textFields are the fields of the module API's values a user reads.
var textFields = map[string][]string{
	"Message":      {"Text", "Caption"},
	"Edit":         {"Text", "Caption"},
	"Button":       {"Text"},
	"InlineResult": {"Title", "Description", "Text"},
}

// TestConvertedModulesSayNothingThatBypassesTheirCatalog reads the non-test
// source of every module package not in notYetConverted (and the engine's)
// and fails on a string literal with a letter in it reaching what a user
// reads: a Reply, an Answer, an Edit, a Message's, Button's or
// InlineResult's text. A text comes from the catalog (req.T) instead; a
// literal without letters ("\n", "• ") is layout.
func TestConvertedModulesSayNothingThatBypassesTheirCatalog(t *testing.T) {
	dirs, err := filepath.Glob("../*")
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, "../../core")
	checked := 0
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if slices.Contains(notYetConverted, name) {
			continue
		}
		checked++
		for _, bad := range literalsSaid(t, dir) {
			t.Errorf("%s: a literal text bypasses the catalog; say it with T(key)", bad)
		}
	}
	if checked < 2 {
		t.Fatalf("checked %d packages: the walk is not where the modules are", checked)
	}
}

// literalsSaid are the places in dir's non-test Go files where a literal
// with a letter reaches a user.
func literalsSaid(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		if slices.ContainsFunc(filesNotYetConverted, func(prefix string) bool {
			return strings.HasPrefix(filepath.ToSlash(p), "../"+prefix)
		}) {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		report := func(e ast.Expr) {
			if lit := letteredLiteral(e); lit != nil {
				out = append(out, fset.Position(lit.Pos()).String()+" "+lit.Value)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if i, ok := sayers[sel.Sel.Name]; ok && i < len(n.Args) {
					report(n.Args[i])
				}
			case *ast.CompositeLit:
				fields := textFields[typeName(n.Type)]
				for _, el := range n.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if k, ok := kv.Key.(*ast.Ident); ok && slices.Contains(fields, k.Name) {
						report(kv.Value)
					}
				}
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

// letteredLiteral is the string literal with a letter that e is or builds
// (a concatenation, a fmt.Sprintf's format); nil when it has none. A
// T(key)'s key is no text, so a call's arguments other than a format's
// are not looked into.
func letteredLiteral(e ast.Expr) *ast.BasicLit {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return nil
		}
		s, _ := strconv.Unquote(e.Value)
		if strings.IndexFunc(s, unicode.IsLetter) >= 0 {
			return e
		}
	case *ast.BinaryExpr:
		if l := letteredLiteral(e.X); l != nil {
			return l
		}
		return letteredLiteral(e.Y)
	case *ast.ParenExpr:
		return letteredLiteral(e.X)
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && strings.HasSuffix(sel.Sel.Name, "printf") && len(e.Args) > 0 {
			return letteredLiteral(e.Args[0])
		}
	}
	return nil
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}
