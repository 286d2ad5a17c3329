// Package buildinfo carries what the build stamps into the binary:
//
//	go build -ldflags "-X github.com/miti99bot/miti99bot/internal/buildinfo.GitSHA=$(git rev-parse --short HEAD)"
//
// The Dockerfile stamps Coolify's SOURCE_COMMIT build argument (or GIT_SHA);
// without either, Go's own record of the checkout it built from is used.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// GitSHA is the commit stamped at build time; empty when the build stamped
// none.
var GitSHA string

// shortLen is how much of a commit hash names a build: git's short form, so
// a full SOURCE_COMMIT and the Makefile's `git rev-parse --short` agree.
const shortLen = 7

// Commit is the commit the binary was built from: the stamped one, else the
// vcs.revision Go records when it builds a clean checkout; "" when neither
// is known (go run, a build outside the repository), which turns the
// deploy notice off.
func Commit() string {
	if GitSHA != "" {
		return short(GitSHA)
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return fromSettings(info.Settings)
}

// fromSettings reads vcs.revision, unless the tree had local changes (such
// a build is no deploy of a commit).
func fromSettings(settings []debug.BuildSetting) string {
	var rev string
	for _, s := range settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			return ""
		}
	}
	return short(rev)
}

func short(sha string) string {
	sha = strings.TrimSpace(sha)
	if len(sha) > shortLen && strings.Trim(strings.ToLower(sha), "0123456789abcdef") == "" {
		return sha[:shortLen]
	}
	return sha
}
