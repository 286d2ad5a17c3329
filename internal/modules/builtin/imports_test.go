package builtin_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const project = "github.com/miti99bot/miti99bot/"

// reachable is what of the project a module's code may import: the module
// API, the storage contract, a pure helper, and other modules' packages.
// The engine (internal/core, internal/claim, internal/timer, internal/cron,
// the runtimes) is reached only through internal/app.
func reachable(path string) bool {
	switch path {
	case project + "internal/app", project + "internal/storage", project + "internal/redact", project + "internal/locale":
		return true
	}
	return strings.HasPrefix(path, project+"internal/modules/")
}

// TestModulesReachTheEngineOnlyThroughTheModuleAPI reads every module's
// non-test source and fails on an import of the project outside reachable.
func TestModulesReachTheEngineOnlyThroughTheModuleAPI(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, project) && !reachable(path) {
				t.Errorf("%s imports %s: a module reaches the engine through internal/app only", p, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 20 {
		t.Fatalf("read %d module files: the walk is not where the modules are", seen)
	}
}
