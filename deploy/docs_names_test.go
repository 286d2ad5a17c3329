package deploy_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/runtimetest"
)

// declared is every name declared in the Go package in dir (its non-test
// files): top-level names, methods and struct fields.
func declared(t *testing.T, dir string) map[string]bool {
	names := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				names[n.Name.Name] = true
			case *ast.TypeSpec:
				names[n.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range n.Names {
					names[id.Name] = true
				}
			case *ast.Field:
				for _, id := range n.Names {
					names[id.Name] = true
				}
			}
			return true
		})
	}
	if len(names) == 0 {
		t.Fatalf("no Go package in %s", dir)
	}
	return names
}

// packageDirs are the packages the README names by their Go name.
var packageDirs = map[string]string{
	"app": "internal/app", "storage": "internal/storage", "games": "internal/modules/games", "core": "internal/core",
	"cron": "internal/cron", "telegram": "internal/telegram", "apptest": "internal/apptest", "testenv": "internal/testenv",
}

var goName = regexp.MustCompile(`^\*?([a-z]+)\.([A-Z][A-Za-z0-9]*)(?:\.([A-Z][A-Za-z0-9]*))?$`)

// TestEveryGoNameTheREADMECitesIsDeclared: a module author looks up what
// the README, and the pages its longer sections moved to, cite
// (`storage.UpdateJSON`, `app.ErrChatGone`), and each name the
// test-package table gives a package is in that package.
func TestEveryGoNameTheREADMECitesIsDeclared(t *testing.T) {
	var readme string
	for _, f := range []string{"README.md", "docs/architecture.md", "docs/testing.md", "docs/modules.md", "docs/modules-guide.md",
		"docs/layout.md", "docs/tests-and-benchmarks.md", "docs/configuration.md"} {
		readme += read(t, "../"+f)
	}
	decls := map[string]map[string]bool{}
	in := func(dir string) map[string]bool {
		if decls[dir] == nil {
			decls[dir] = declared(t, filepath.Join("..", dir))
		}
		return decls[dir]
	}
	for _, code := range codeOf(readme) {
		m := goName.FindStringSubmatch(code)
		if m == nil || packageDirs[m[1]] == "" {
			continue
		}
		names := in(packageDirs[m[1]])
		if !names[m[2]] || m[3] != "" && !names[m[3]] {
			t.Errorf("README.md (or a page it moved to) cites `%s`, which %s does not declare", code, packageDirs[m[1]])
		}
	}
	row := regexp.MustCompile("(?m)^\\| `(internal/[a-z/]+)` \\|(.*)\\|$")
	ident := regexp.MustCompile("`([A-Z][A-Za-z0-9]*)`")
	for _, r := range row.FindAllStringSubmatch(readme, -1) {
		for _, id := range ident.FindAllStringSubmatch(r[2], -1) {
			if !in(r[1])[id[1]] {
				t.Errorf("README.md's row of %s names %s, which it does not declare", r[1], id[1])
			}
		}
	}
}

var metricName = regexp.MustCompile(`\bmiti99bot_[a-z_]+`)

func TestEveryMetricTheDocsNameIsOfTheMetricSet(t *testing.T) {
	quoted(t, func(doc, code string) {
		for _, n := range metricName.FindAllString(code, -1) {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_sum"), "_count")
			if _, ok := metrics.Help[base]; !ok {
				t.Errorf("%s: `%s` names %s, which the bot does not serve", doc, code, n)
			}
		}
	})
}

// logTexts are log lines the runbooks tell an operator to look for; each
// is quoted by its doc and written by the code.
var logTexts = []struct{ doc, text string }{
	{"deploy-coolify.md", "polling started"},
	{"deploy-coolify.md", "cron scheduler started"},
	{"deploy-coolify.md", "webhook mode: Telegram delivers to the webhook; not polling"},
	{"deploy-coolify.md", "deploy notice off: "},
	{"deploy-coolify.md", "cron job status"},
	{"deploy-coolify.md", "embedded store"},
	{"deploy-coolify.md", "storage backend"},
	{"deploy-coolify.md", "polling: Telegram rejects the bot token (401); set a valid TELEGRAM_BOT_TOKEN"},
	{"deploy-coolify.md", "clock skew: this host's clock is behind the Bot API's"},
	{"deploy-coolify.md", "in use by another process"},
	{"deploy-aws.md", "update failed"},
	{"deploy-coolify.md", "another live process with this hostname took the lease: this one stands down; give each replica its own hostname"},
	{"deploy-coolify.md", "the lease is given up: the store failed every renewal"},
	{"deploy-coolify.md", "polling stopped; updates are left for the next poller"},
	{"deploy-coolify.md", "update cut before it was done; the next poller handles it"},
	{"configuration.md", "damaged: restore from a backup"},
}

func TestEveryLogLineTheRunbooksQuoteIsWritten(t *testing.T) {
	var code strings.Builder
	err := filepath.WalkDir("../internal", func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			code.WriteString(read(t, path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range logTexts {
		doc := "../docs/" + l.doc
		if !strings.Contains(read(t, doc), l.text) {
			t.Errorf("%s no longer quotes %q: drop it here", l.doc, l.text)
		}
		if !strings.Contains(code.String(), l.text) {
			t.Errorf("%s quotes %q, which no code writes", l.doc, l.text)
		}
	}
}

var (
	botctlCall  = regexp.MustCompile(`\bbotctl ([a-z]+) ([a-z]+)((?: +[^ ]+)*)`)
	migrateCall = regexp.MustCompile(`cmd/migrate((?: +[^ ]+)*)`)
	flagWord    = regexp.MustCompile(`^--?[a-z][a-z-]*`)
)

// TestEveryCommandLineTheDocsQuoteParses: each botctl sub-command a doc
// quotes exists, and each flag a botctl or migrate line passes is one the
// tool has (its -h lists it).
func TestEveryCommandLineTheDocsQuoteParses(t *testing.T) {
	bin := map[string]string{"botctl": runtimetest.Build(t, "./cmd/botctl"), "migrate": runtimetest.Build(t, "./cmd/migrate")}
	usage := map[string]string{}
	help := func(tool string, args ...string) (string, error) {
		key := tool + " " + strings.Join(args, " ")
		if u, ok := usage[key]; ok {
			return u, nil
		}
		out, err := exec.Command(bin[tool], append(args, "-h")...).CombinedOutput()
		usage[key] = string(out)
		return string(out), err
	}
	flagsOf := func(doc, code, tool, args string, sub ...string) {
		u, err := help(tool, sub...)
		if err != nil || len(sub) > 0 && !strings.HasPrefix(u, "usage: "+tool+" "+strings.Join(sub, " ")) {
			t.Errorf("%s: `%s`: %s has no sub-command %q (%v)", doc, code, tool, strings.Join(sub, " "), err)
			return
		}
		for _, w := range strings.Fields(args) {
			if f := flagWord.FindString(w); f != "" && f != "-h" && f != "--help" && !strings.Contains(u, "-"+strings.TrimLeft(f, "-")+" ") &&
				!strings.Contains(u, "-"+strings.TrimLeft(f, "-")+"\n") {
				t.Errorf("%s: `%s` passes %s, which %s %s does not have", doc, code, f, tool, strings.Join(sub, " "))
			}
		}
	}
	quoted(t, func(doc, code string) {
		for _, m := range botctlCall.FindAllStringSubmatch(code, -1) {
			flagsOf(doc, code, "botctl", m[3], m[1], m[2])
		}
		if m := migrateCall.FindStringSubmatch(code); m != nil {
			flagsOf(doc, code, "migrate", m[1])
		}
		if doc == "migration.md" && flagWord.MatchString(code) && strings.HasPrefix(code, "--") {
			flagsOf(doc, code, "migrate", code)
		}
	})
}
