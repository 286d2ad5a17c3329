package mongodb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

const password = "S3cretPassw0rd-do-not-print"

func TestOpenReportsMissingSettingsByName(t *testing.T) {
	_, err := mongodb.Open(t.Context(), mongodb.Config{})
	if err == nil || !strings.Contains(err.Error(), "MONGO_URL") || !strings.Contains(err.Error(), "MONGO_DATABASE") {
		t.Fatalf("Open(empty config) = %v, want an error naming both variables", err)
	}
}

// blackHole accepts connections and never answers, like a firewalled server.
func blackHole(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return l.Addr().String()
}

func TestUnreachableServerFailsWithoutLeakingTheURL(t *testing.T) {
	targets := map[string]string{
		"connection refused":   testenv.FreePort(t),
		"server never answers": blackHole(t),
	}
	for name, addr := range targets {
		t.Run(name, func(t *testing.T) {
			url := "mongodb://miti99bot:" + password + "@" + addr + "/?authSource=admin"
			var logs bytes.Buffer
			_, err := mongodb.Open(t.Context(), mongodb.Config{URL: url, Database: "botdb", AllowFerretDB: true},
				mongodb.WithConnectTimeout(500*time.Millisecond),
				mongodb.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
			if err == nil {
				t.Fatal("Open succeeded against a dead server")
			}
			for _, leak := range []string{password, url, "miti99bot:"} {
				if strings.Contains(err.Error(), leak) || strings.Contains(logs.String(), leak) {
					t.Fatalf("%q leaked:\nerror: %v\nlogs: %s", leak, err, logs.String())
				}
			}
			if !strings.Contains(err.Error(), "botdb") {
				t.Errorf("error %q should name the database", err)
			}
			t.Logf("Open: %v", err)
		})
	}
}

func TestStartupLogNamesOnlyBackendAndDatabase(t *testing.T) {
	url := testenv.Require(t, "MONGODB_TEST_URL")
	var logs bytes.Buffer
	p, err := mongodb.Open(t.Context(), mongodb.Config{URL: url, Database: "logcheck", AllowFerretDB: true},
		mongodb.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	// The start-up line is the last: FerretDB's accepted WARN goes before it.
	lines := bytes.Split(bytes.TrimSpace(logs.Bytes()), []byte("\n"))
	var line map[string]any
	if err := json.Unmarshal(lines[len(lines)-1], &line); err != nil {
		t.Fatalf("want a JSON start-up line, got %q", logs.String())
	}
	var keys []string
	for k := range line {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"backend", "database", "level", "msg", "time"}) || line["backend"] != "mongodb" || line["database"] != "logcheck" {
		t.Fatalf("start-up line = %s, want only backend=mongodb database=logcheck", logs.String())
	}
}

func TestProviderSurvivesAServerRestart(t *testing.T) {
	bin := testenv.Require(t, "FERRETDB_BIN")
	addr, state := testenv.FreePort(t), filepath.Join(t.TempDir(), "state")
	start := func() *testenv.Server {
		return testenv.StartServer(t, bin, "-listen", addr, "-state", state, "-uri-file", testenv.URLFile)
	}
	srv := start()
	ctx := t.Context()
	p, err := mongodb.Open(ctx, mongodb.Config{URL: srv.URL, Database: "restart", AllowFerretDB: true},
		mongodb.WithConnectTimeout(2*time.Second), mongodb.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	s := p.For("mod")
	if err := s.Put(ctx, "k", []byte("before")); err != nil {
		t.Fatal(err)
	}

	srv.Kill()
	callCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
	_, err = s.Get(callCtx, "k")
	cancel()
	if err == nil {
		t.Fatal("Get succeeded while the server was down")
	}
	t.Logf("while down: %v", err)

	start()
	err = testenv.Eventually(30*time.Second, func() error {
		callCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		v, err := s.Get(callCtx, "k")
		if err == nil && string(v) != "before" {
			t.Fatalf("after restart Get = %q, want the value written before", v)
		}
		return err
	})
	if err != nil {
		t.Fatalf("the same provider never recovered after the restart: %v", err)
	}
	if err := s.Put(ctx, "k", []byte("after")); err != nil {
		t.Fatalf("Put after restart: %v", err)
	}
}
