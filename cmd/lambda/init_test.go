package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A cold start pays every package-level variable's initialiser of every
// package it links. The bot's own packages compile no regular expression
// there: the first compile touches the whole regexp compiler (a tenth of a
// millisecond at start), for messages too long to send or damaged items, a
// path a webhook call rarely takes. They compile it at first use
// (sync.OnceValue).
func TestTheBootstrapsOwnPackagesCompileNoRegexpAtStart(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "lambda.norpc", "-deps",
		"-f", `{{if not .Standard}}{{.ImportPath}} {{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{"\n"}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) < 3 || !strings.HasPrefix(fields[0], "github.com/miti99bot/miti99bot/") {
			continue
		}
		for _, name := range fields[2:] {
			path := filepath.Join(fields[1], name)
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, call := range compiles(g) {
						t.Errorf("%s: a regexp compiled at start", fset.Position(call.Pos()))
					}
				}
			}
		}
	}
}

// compiles are the calls of regexp's Compile functions in the package-level
// var declaration g, outside any function literal (which runs later).
func compiles(g *ast.GenDecl) []*ast.CallExpr {
	var found []*ast.CallExpr
	ast.Inspect(g, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "regexp" && strings.Contains(sel.Sel.Name, "Compile") {
					found = append(found, n)
				}
			}
		}
		return true
	})
	return found
}
