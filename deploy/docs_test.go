package deploy_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// An on-call operator follows the README and the runbooks literally: each
// make target, variable and path they name must be one the project has.
// These tests read what the docs quote as code (`spans` and fenced blocks).

// docFiles are the docs an operator follows.
func docFiles(t *testing.T) []string {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, files...)
}

var (
	fence = regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```")
	span  = regexp.MustCompile("`([^`\n]+)`")
)

// codeOf is what a doc quotes as code: each inline span, and each line of
// its fenced blocks but JSON ones (IAM policies, whose REGION and
// ACCOUNT_ID are placeholders, not variables).
func codeOf(doc string) []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(doc, -1) {
		if m[1] != "json" {
			out = append(out, strings.Split(m[2], "\n")...)
		}
	}
	for _, m := range span.FindAllStringSubmatch(fence.ReplaceAllString(doc, ""), -1) {
		out = append(out, m[1])
	}
	return out
}

// quoted runs check on every piece of code of every doc.
func quoted(t *testing.T, check func(doc, code string)) {
	for _, f := range docFiles(t) {
		for _, c := range codeOf(read(t, f)) {
			check(filepath.Base(f), c)
		}
	}
}

var makeCall = regexp.MustCompile(`\bmake ([A-Za-z0-9_-]+)`)

func TestEveryMakeTargetTheDocsNameIsInTheMakefile(t *testing.T) {
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9_-]+):`).FindAllStringSubmatch(read(t, "../Makefile"), -1) {
		targets[m[1]] = true
	}
	quoted(t, func(doc, code string) {
		for _, m := range makeCall.FindAllStringSubmatch(code, -1) {
			if !targets[m[1]] {
				t.Errorf("%s: `%s` names make %s, which the Makefile does not have", doc, code, m[1])
			}
		}
	})
}

var variable = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`)

// TestEveryVariableTheDocsNameIsRead: a variable a doc tells an operator to
// set is read by the bot's configuration, by one of the tools (a string in
// their code), or by the deployment files; AWS_* are the AWS SDK's own.
func TestEveryVariableTheDocsNameIsRead(t *testing.T) {
	read := knownVariables(t)
	quoted(t, func(doc, code string) {
		for _, v := range variable.FindAllString(code, -1) {
			if !read[v] && !strings.HasPrefix(v, "AWS_") {
				t.Errorf("%s: `%s` names %s, which nothing reads", doc, code, v)
			}
		}
	})
}

// knownVariables are the configuration's variables (and the SSM names of
// its secrets), and every NAME the deployment files or the code quote.
func knownVariables(t *testing.T) map[string]bool {
	known := map[string]bool{}
	for _, v := range config.Variables(wiring.Settings()) {
		known[v.Name] = true
		if v.Secret {
			known[v.Name+"_PARAMETER_NAME"] = true
		}
	}
	for _, f := range []string{"../compose.yml", "../Makefile", "../Dockerfile", "../template.yaml", "../.env.example"} {
		for _, v := range variable.FindAllString(read(t, f), -1) {
			known[v] = true
		}
	}
	literal := regexp.MustCompile(`"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"`)
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "node_modules" || d.Name() == "testdata"):
			return filepath.SkipDir
		case !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		for _, m := range literal.FindAllStringSubmatch(read(t, path), -1) {
			known[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return known
}

var repoPath = regexp.MustCompile(`^(?:\./)?((?:cmd|internal|docs|deploy|e2e|scripts|tools|\.ci)/[A-Za-z0-9_./-]*|[A-Za-z0-9_.-]+\.(?:md|yml|yaml|json|toml|example))$`)

// TestEveryPathTheDocsNameExists: a file or directory of this repository
// a doc points at (`internal/cron`, `deploy/prometheus/alerts.yml`) is there.
// Files an operator creates (samconfig.toml, .env) are not this repository's.
func TestEveryPathTheDocsNameExists(t *testing.T) {
	made := []string{"samconfig.toml", ".env", "prometheus.yml"}
	quoted(t, func(doc, code string) {
		for _, word := range strings.Fields(code) {
			m := repoPath.FindStringSubmatch(strings.Trim(word, "(),;:"))
			if m == nil || slices.Contains(made, m[1]) || strings.Contains(m[1], "...") {
				continue
			}
			path := filepath.Join("..", m[1])
			if !strings.Contains(m[1], "/") {
				// A bare doc name is a sibling in docs/, or at the root.
				if _, err := os.Stat(filepath.Join("../docs", m[1])); err == nil {
					continue
				}
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: `%s` names %s, which is not in the repository", doc, code, m[1])
			}
		}
	})
}
