package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/cmdmain"
)

// modes are the migrator's sub-commands, each with arguments that would act.
var modes = map[string][]string{
	"copy":                 {"--from", "dynamodb", "--to", "mongodb"},
	"dry run":              {"--from", "dynamodb", "--to", "mongodb", "--dry-run"},
	"verify":               {"--from", "mongodb", "--to", "dynamodb", "--verify"},
	"verify after cutover": {"--from", "mongodb", "--to", "dynamodb", "--verify-after-cutover"},
	"mirror":               {"--from", "bolt", "--to", "dynamodb", "--mirror", "--confirm-target", "dynamodb table sandbox"},
	"bolt to bolt":         {"--from", "bolt", "--to", "bolt", "--to-path", "TO_PATH"},
}

// sandboxAnswer is the 400 every sandboxed request gets.
const sandboxAnswer = `{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"sandbox"}`

// sandbox is everything the migrator can reach: DynamoDB (an HTTP server
// refusing each call with a 400 the SDK does not retry), MongoDB (a TCP
// listener that cancels the run's context on a connection, so the driver
// gives up at once) and two bolt files.
type sandbox struct {
	env      map[string]string
	toPath   string
	requests atomic.Int64
	accepts  atomic.Int64
	cancel   atomic.Pointer[context.CancelFunc]
}

func newSandbox(t *testing.T) *sandbox {
	s := &sandbox{}
	aws := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.requests.Add(1)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(sandboxAnswer))), 10)) // the SDK checks it
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, sandboxAnswer)
	}))
	t.Cleanup(aws.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.accepts.Add(1)
			if cancel := s.cancel.Load(); cancel != nil {
				(*cancel)()
			}
			c.Close() // a silent connection would hold the driver's disconnect
		}
	}()
	t.Cleanup(func() { l.Close() })
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": aws.URL, "AWS_ENDPOINT_URL_DYNAMODB": aws.URL, "AWS_REGION": "us-east-1",
		"AWS_ACCESS_KEY_ID": "sandbox", "AWS_SECRET_ACCESS_KEY": "sandbox", "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
	} {
		t.Setenv(k, v) // the SDK reads the process's environment
	}
	dir := t.TempDir()
	s.toPath = filepath.Join(dir, "to.db")
	s.env = map[string]string{
		"DYNAMODB_TABLE": "sandbox", "MONGO_URL": "mongodb://" + l.Addr().String(), "MONGO_DATABASE": "sandbox",
		"BOLT_PATH": filepath.Join(dir, "from.db"),
	}
	return s
}

// touched counts what a run reached: requests, connections, files.
func (s *sandbox) touched() int64 {
	n := s.requests.Load() + s.accepts.Load()
	for _, p := range []string{s.env["BOLT_PATH"], s.toPath} {
		if _, err := os.Stat(p); err == nil {
			n++
		}
	}
	return n
}

func (s *sandbox) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	args = append([]string(nil), args...)
	for i, a := range args {
		if a == "TO_PATH" {
			args[i] = s.toPath
		}
	}
	return run(ctx, args, func(k string) string { return s.env[k] }, stdout, stderr)
}

// The sandbox is seen: without -h each mode reaches it, so the help test
// below cannot pass for a mode that acts somewhere unwatched.
func TestSandboxSeesEveryModeAct(t *testing.T) {
	for name, args := range modes {
		t.Run(name, func(t *testing.T) {
			s := newSandbox(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			s.cancel.Store(&cancel)
			if err := s.run(ctx, args, io.Discard, io.Discard); s.touched() == 0 {
				t.Fatalf("= %v, touching nothing; want the sandbox reached", err)
			}
		})
	}
}

func TestEveryModeAnswersHelpAndTouchesNothing(t *testing.T) {
	s := newSandbox(t)
	for name, args := range modes {
		for _, h := range []string{"-h", "--help", "-help"} {
			for _, argv := range [][]string{{h}, slices.Concat(args, []string{h}), slices.Concat([]string{h}, args), slices.Concat([]string{"stray"}, args, []string{h})} {
				t.Run(name+" "+strings.Join(argv, " "), func(t *testing.T) {
					var out, errOut bytes.Buffer
					err := s.run(t.Context(), argv, &out, &errOut)
					if !errors.Is(err, flag.ErrHelp) || cmdmain.Report(io.Discard, "migrate", err) != 0 {
						t.Fatalf("= %v; want flag.ErrHelp, exit code 0", err)
					}
					if !strings.HasPrefix(out.String(), "usage: migrate ") || !strings.Contains(out.String(), "-verify-after-cutover") || errOut.Len() != 0 {
						t.Fatalf("stdout %q, stderr %q; want the usage and flags on stdout", out.String(), errOut.String())
					}
					if n := s.touched(); n != 0 {
						t.Fatalf("asking for help touched the sandbox %d times", n)
					}
				})
			}
		}
	}
}

// A word after the flags was ignored: "... verify" ran a copy.
func TestAStrayArgumentIsRefusedBeforeAnythingOpens(t *testing.T) {
	s := newSandbox(t)
	err := s.run(t.Context(), []string{"--from", "dynamodb", "--to", "mongodb", "verify"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `unexpected argument "verify"`) || s.touched() != 0 {
		t.Fatalf("= %v, touched %d", err, s.touched())
	}
}
