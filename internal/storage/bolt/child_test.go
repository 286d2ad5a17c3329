package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// The test binary doubles as the child that opens damaged files: a crash
// there (SIGBUS, an unrecovered panic) must fail a case, not end the run.
const childEnv, argEnv = "BOLT_TEST_CHILD", "BOLT_TEST_ARG"

// children are the child's modes, by the value of childEnv.
var children = map[string]func(arg string){"open": openEach}

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		children[mode](os.Getenv(argEnv))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// openEach opens each file of the directory dir, reads every item of
// those that open, and prints one line per file: path, class, message.
func openEach(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		class, msg := "ok", ""
		p, err := bolt.Open(path)
		if err == nil {
			err = p.Walk(context.Background(), func(storage.Raw) error { return nil })
			p.Close(context.Background())
		}
		switch {
		case errors.Is(err, bolt.ErrDamaged):
			class = "damaged"
		case errors.Is(err, bolt.ErrEmpty):
			class = "empty"
		case err != nil:
			class = "other"
		}
		if err != nil {
			msg = err.Error()
		}
		fmt.Printf("%s\t%s\t%s\n", path, class, strings.ReplaceAll(msg, "\n", " "))
	}
}

type opened struct{ path, class, msg string }

// runChild runs the test binary in mode; it must exit 0.
func runChild(t *testing.T, mode, arg string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0])
	// The race detector waits a second at exit for late reports; the
	// child has no goroutines left to report on.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, argEnv+"="+arg, "GORACE="+gorace)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child (%s) died: %v\nits output:\n%s\nits stderr:\n%.3000s", mode, err, out, stderr.String())
	}
	return string(out)
}

// openInChild opens the n files of dir in a child process and says how
// each went.
func openInChild(t *testing.T, dir string, n int) []opened {
	t.Helper()
	var got []opened
	for line := range strings.Lines(runChild(t, "open", dir)) {
		f := strings.SplitN(strings.TrimSuffix(line, "\n"), "\t", 3)
		if len(f) != 3 {
			t.Fatalf("the child printed %q", line)
		}
		got = append(got, opened{f[0], f[1], f[2]})
	}
	if len(got) != n {
		t.Fatalf("the child reported %d of %d files", len(got), n)
	}
	return got
}
