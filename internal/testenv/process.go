package testenv

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// Server is a server process a test started itself (to kill and restart it).
type Server struct {
	t    testing.TB
	cmd  *exec.Cmd
	done chan struct{}
	URL  string // what the server wrote to its URL file
}

// URLFile in StartServer's arguments stands for the file the server writes
// its URL to once it listens (the convention of tools/ferretdb and
// tools/dynalite/start.js).
const URLFile = "{url-file}"

// StartServer runs name with args, waits until it has written its URL file,
// and kills it at cleanup if the test has not.
func StartServer(t testing.TB, name string, args ...string) *Server {
	t.Helper()
	urlFile := filepath.Join(t.TempDir(), "url")
	args = append([]string(nil), args...)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, URLFile, urlFile)
	}
	cmd := exec.Command(name, args...)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	s := &Server{t: t, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	t.Cleanup(s.Kill)

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
			t.Fatalf("%s exited before listening: %s", name, log.String())
		case <-deadline:
			t.Fatalf("%s did not listen within 60 s: %s", name, log.String())
		case <-tick.C:
		}
	}
}

// Kill stops the server abruptly (SIGKILL) and waits for it to exit.
func (s *Server) Kill() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Kill()
	<-s.done
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
