package deploy_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

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

// TestTheREADMEOpensWithTheTwoCommands: a newcomer reads what the bot is
// and how to run and test it on the first screen; the reference is in
// docs/, one link away.
func TestTheREADMEOpensWithTheTwoCommands(t *testing.T) {
	readme := read(t, "../README.md")
	lines := strings.Split(readme, "\n")
	first := strings.Join(lines[:min(len(lines), 25)], "\n")
	for _, cmd := range []string{"make run", "make test"} {
		if !strings.Contains(first, cmd) {
			t.Errorf("the README's first screen (25 lines) lacks `%s`", cmd)
		}
	}
	if words := len(strings.Fields(readme)); words > 1000 {
		t.Errorf("the README is %d words; keep it to what the bot is, how to try it and where to read on (reference goes in docs/)", words)
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)|src="([^"]+)"`)

// TestEveryLinkOfTheDocsLeadsSomewhere: each relative link of the README
// and docs/*.md names a file of the repository and, with #anchor, a
// heading of that file, as GitHub makes its anchors.
func TestEveryLinkOfTheDocsLeadsSomewhere(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		for _, line := range strings.Split(fence.ReplaceAllString(read(t, path), ""), "\n") {
			if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
				a[slug(h)] = true
			}
		}
		anchors[path] = a
		return a
	}
	for _, f := range docFiles(t) {
		for _, m := range mdLink.FindAllStringSubmatch(fence.ReplaceAllString(read(t, f), ""), -1) {
			target := m[1] + m[2]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := f
			if file != "" {
				path = filepath.Join(filepath.Dir(f), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which is not there", filepath.Base(f), target)
				continue
			}
			if anchor != "" && !anchorsOf(path)[anchor] {
				t.Errorf("%s links to %s, whose file has no heading #%s", filepath.Base(f), target, anchor)
			}
		}
	}
}

// slug is GitHub's anchor of a heading: lower case, spaces to hyphens,
// punctuation but hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
