package dynamodb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	ddb "github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestOpenRequiresATableName(t *testing.T) {
	_, err := ddb.Open(t.Context(), ddb.Config{AWS: defaultchain.Load})
	if err == nil || !strings.Contains(err.Error(), "DYNAMODB_TABLE") {
		t.Fatalf("Open(no table) = %v, want an error naming DYNAMODB_TABLE", err)
	}
}

func endpoint(url string) ddb.Option {
	return ddb.WithClientOptions(func(o *dynamodb.Options) { o.BaseEndpoint = &url })
}

func TestUnreachableEndpointFailsWithinTheInitBound(t *testing.T) {
	testenv.Require(t, "AWS_ENDPOINT_URL_DYNAMODB") // credentials and region come with it
	hole, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	go func() { // accept and never answer
		for {
			c, err := hole.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	targets := map[string]string{
		"connection refused":   "http://" + testenv.FreePort(t),
		"server never answers": "http://" + hole.Addr().String(),
	}
	for name, url := range targets {
		t.Run(name, func(t *testing.T) {
			_, err := ddb.Open(t.Context(), ddb.Config{Table: "bot", AWS: defaultchain.Load}, endpoint(url),
				ddb.WithInitTimeout(500*time.Millisecond), ddb.WithLogger(slog.New(slog.DiscardHandler)))
			if err == nil || !strings.Contains(err.Error(), `table "bot"`) {
				t.Fatalf("Open = %v, want an error naming the table", err)
			}
			t.Logf("Open: %v", err)
		})
	}
	t.Run("a missing table", func(t *testing.T) {
		_, err := ddb.Open(t.Context(), ddb.Config{Table: "no-such-table", AWS: defaultchain.Load}, ddb.WithLogger(slog.New(slog.DiscardHandler)))
		if err == nil || !strings.Contains(err.Error(), "no-such-table") {
			t.Fatalf("Open = %v, want an error naming the table", err)
		}
	})
}

// Opened without the table check (as the Lambda runtime opens it), a
// missing table shows at the first call, named in every call's error.
func TestAMissingTableOpenedWithoutTheCheckIsNamedByEveryCall(t *testing.T) {
	testenv.Require(t, "AWS_ENDPOINT_URL_DYNAMODB")
	p, err := ddb.Open(t.Context(), ddb.Config{Table: "no-such-table", AWS: defaultchain.Load},
		ddb.WithoutTableCheck(), ddb.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatalf("Open without the check: %v", err)
	}
	s := p.For("core")
	calls := map[string]func() error{
		"Get":            func() error { _, err := s.Get(t.Context(), "k"); return err },
		"Put":            func() error { return s.Put(t.Context(), "k", []byte("v")) },
		"Delete":         func() error { return s.Delete(t.Context(), "k") },
		"List":           func() error { _, err := s.List(t.Context(), ""); return err },
		"CompareAndSwap": func() error { return s.CompareAndSwap(t.Context(), "k", nil, []byte("v")) },
		// The migrator's calls: its source is opened without the check too.
		"Namespaces": func() error { _, err := p.Namespaces(t.Context()); return err },
		"Items": func() error {
			for _, err := range p.Items(t.Context(), "core") {
				return err
			}
			return nil
		},
		"Walk": func() error { return p.Walk(t.Context(), func(storage.Raw) error { return nil }) },
		"Load": func() error {
			_, err := p.Load(t.Context(), []storage.Item{{Namespace: "core", Key: "k", Value: []byte("v"), UpdatedAt: 1}}, storage.LoadOptions{})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); err == nil || !strings.Contains(err.Error(), `table "no-such-table" not found`) {
			t.Errorf("%s = %v, want an error naming the missing table", name, err)
		}
	}
}

func TestStartupLogNamesOnlyBackendAndTable(t *testing.T) {
	var logs bytes.Buffer
	p := backendtest.Dynamo(t, ddb.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("want one JSON log line, got %q", logs.String())
	}
	var keys []string
	for k := range line {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"backend", "level", "msg", "table", "time"}) || line["table"] != p.Table() {
		t.Fatalf("start-up line = %s", logs.String())
	}
}

func TestProviderSurvivesAServerRestart(t *testing.T) {
	script := testenv.Require(t, "DYNALITE_START")
	addr := testenv.FreePort(t)
	_, port, _ := net.SplitHostPort(addr)
	ctx := t.Context()
	start := func() *testenv.Server {
		srv := testenv.StartServer(t, "node", script, testenv.URLFile, port)
		// dynalite keeps tables in memory: a restarted server needs the table again.
		client, err := ddb.NewClient(ctx, defaultchain.Load, func(o *dynamodb.Options) { o.BaseEndpoint = &srv.URL })
		if err != nil {
			t.Fatal(err)
		}
		if err := ddb.CreateTable(ctx, client, "restart"); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	srv := start()
	p, err := ddb.Open(ctx, ddb.Config{Table: "restart", AWS: defaultchain.Load}, endpoint(srv.URL), ddb.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
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
		return s.Put(callCtx, "k", []byte("after"))
	})
	if err != nil {
		t.Fatalf("the same provider never recovered after the restart: %v", err)
	}
	if v, err := s.Get(ctx, "k"); err != nil || string(v) != "after" {
		t.Fatalf("Get after restart = %q, %v", v, err)
	}
}

// The SIGKILL tests (the migrator's, the container's) kill a client in the
// middle of a request; the shared test server must live on, as DynamoDB does,
// or every later test fails against a dead port.
func TestTheTestServerOutlivesAClientKilledMidRequest(t *testing.T) {
	script := testenv.Require(t, "DYNALITE_START")
	srv := testenv.StartServer(t, "node", script, testenv.URLFile)
	for range 5 {
		conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		// Headers and the start of a body, then a reset: what the kernel sends
		// for a process killed mid-write.
		_, err = conn.Write([]byte("POST / HTTP/1.1\r\nHost: dynamodb\r\nX-Amz-Target: DynamoDB_20120810.BatchWriteItem\r\n" +
			"Content-Type: application/x-amz-json-1.0\r\nContent-Length: 100000\r\n\r\n{\"RequestItems\":"))
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.(*net.TCPConn).SetLinger(0)
		_ = conn.Close()
	}
	client, err := ddb.NewClient(t.Context(), defaultchain.Load, func(o *dynamodb.Options) { o.BaseEndpoint = &srv.URL })
	if err != nil {
		t.Fatal(err)
	}
	if err := ddb.CreateTable(t.Context(), client, "after_reset"); err != nil {
		t.Fatalf("the server did not outlive the aborted requests: %v", err)
	}
}
