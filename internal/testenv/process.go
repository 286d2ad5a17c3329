package testenv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// FreePort returns a loopback TCP address that was free a moment ago, for a
// server that must come back on the same address after a restart.
func FreePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// Buffer collects output (a process's, a logger's) while others write to
// it: it is safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Process is a program a test started: a binary under test or a server.
type Process struct {
	cmd  *exec.Cmd
	out  *Buffer
	done chan struct{}
	err  error
	// checkLogs: at cleanup, its JSON log lines are checked (CheckLogs).
	checkLogs atomic.Bool
}

// Start runs bin with args. With a non-nil env it gets exactly env (plus
// PATH and HOME); with nil, the test's own environment. At cleanup it is
// killed if it still runs, its logs are checked if CheckLogs asked for it,
// and its output is logged if the test failed.
func Start(t testing.TB, env map[string]string, bin string, args ...string) *Process {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if env != nil {
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	p := &Process{cmd: cmd, out: &Buffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.Kill()
		if p.checkLogs.Load() {
			CheckLogLines(t, filepath.Base(bin), p.out.String())
		}
		if t.Failed() {
			t.Logf("output of %s:\n%s", bin, p.out.String())
		}
	})
	return p
}

// Pid is the process's id (to set its limits with prlimit).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Output is what the process printed so far.
func (p *Process) Output() string { return p.out.String() }

// Signal sends sig (SIGTERM for a graceful stop).
func (p *Process) Signal(sig syscall.Signal) error { return p.cmd.Process.Signal(sig) }

// Kill stops the process abruptly (SIGKILL) and waits for it to exit.
func (p *Process) Kill() {
	if !p.Exited() {
		_ = p.cmd.Process.Kill()
	}
	<-p.done
}

// Wait waits for the process to exit, up to ctx, and returns its exit error.
func (p *Process) Wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Server is a server process a test started itself (to kill and restart it).
type Server struct {
	*Process
	URL string // what the server wrote to its URL file
}

// URLFile in StartServer's arguments stands for the file the server writes
// its URL to once it listens (the convention of tools/ferretdb and
// tools/dynalite/start.js).
const URLFile = "{url-file}"

// StartServer runs name with args in the test's environment, waits until
// it has written its URL file, and kills it at cleanup if the test has not.
func StartServer(t testing.TB, name string, args ...string) *Server {
	t.Helper()
	urlFile := filepath.Join(t.TempDir(), "url")
	args = append([]string(nil), args...)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, URLFile, urlFile)
	}
	s := &Server{Process: Start(t, nil, name, args...)}
	deadline := time.After(60 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(urlFile); err == nil && len(b) > 0 {
			s.URL = strings.TrimSpace(string(b))
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("%s exited before listening: %s", name, s.Output())
		case <-deadline:
			t.Fatalf("%s did not listen within 60 s: %s", name, s.Output())
		case <-tick.C:
		}
	}
}

// Eventually polls f until it returns nil or the deadline passes, and returns
// f's last error. It synchronises on an observable condition, not a sleep.
func Eventually(timeout time.Duration, f func() error) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		<-tick.C
	}
}

// RSS is the process's resident set size now, in bytes (Linux: VmRSS of
// /proc/<pid>/status).
func (p *Process) RSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(kb), " kB"), 10, 64)
			return n * 1024, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}
