// Package runtimetest runs the bot's real binaries for tests: cmd/container
// as a process, cmd/lambda as a bootstrap under the AWS Lambda Runtime
// Interface Emulator. Binaries are built once per test run with the testkit
// module compiled in.
package runtimetest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildMu sync.Mutex
	built   = map[string]string{}
)

// RepoRoot finds the module root (the directory holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// Build compiles pkg (e.g. "./cmd/container") with -tags testkit plus tags,
// into .testservers/build, once per test process, and returns the binary.
func Build(t testing.TB, pkg string, tags ...string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	tags = append([]string{"testkit"}, tags...)
	key := pkg + " " + strings.Join(tags, ",")
	if bin, ok := built[key]; ok {
		return bin
	}
	root := RepoRoot(t)
	name := filepath.Base(pkg)
	if strings.Contains(key, "lambda.norpc") {
		name = "bootstrap"
	}
	dir := filepath.Join(root, ".testservers", "build", strings.NewReplacer("/", "_", ".", "_", ",", "_").Replace(strings.Join(tags, "-")))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-tags", strings.Join(tags, ","), "-o", bin, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out.String())
	}
	built[key] = bin
	return bin
}
