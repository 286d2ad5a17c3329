package runtimetest

import (
	"context"
	"net"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	ddb "github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// Store is a storage server a test owns, so it can take it down and back.
type Store struct {
	// Env points the bot at the server (KV_PROVIDER and its settings).
	Env     map[string]string
	srv     *testenv.Server
	restart func() *testenv.Server
}

// Stop kills the server (SIGKILL).
func (s *Store) Stop() { s.srv.Kill() }

// Restart brings it back on the same address (and, for dynalite, whose
// tables live in memory, recreates the table).
func (s *Store) Restart() { s.srv = s.restart() }

// FerretDB starts a MongoDB-wire server with its state on disk, so data
// survives a restart.
func FerretDB(t testing.TB, database string) *Store {
	t.Helper()
	bin := testenv.Require(t, "FERRETDB_BIN")
	addr, state := testenv.FreePort(t), filepath.Join(t.TempDir(), "ferretdb")
	start := func() *testenv.Server {
		return testenv.StartServer(t, bin, "-listen", addr, "-state", state, "-uri-file", testenv.URLFile)
	}
	srv := start()
	return &Store{
		Env:     map[string]string{"KV_PROVIDER": "mongodb", "MONGO_URL": srv.URL, "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": database},
		srv:     srv,
		restart: start,
	}
}

// Dynalite starts a DynamoDB-API server with table created.
func Dynalite(t testing.TB, table string) *Store {
	t.Helper()
	script := testenv.Require(t, "DYNALITE_START")
	testenv.Require(t, "AWS_ACCESS_KEY_ID")
	_, port, _ := net.SplitHostPort(testenv.FreePort(t))
	start := func() *testenv.Server {
		srv := testenv.StartServer(t, "node", script, testenv.URLFile, port)
		client, err := ddb.NewClient(context.Background(), defaultchain.Load, func(o *dynamodb.Options) { o.BaseEndpoint = &srv.URL })
		if err != nil {
			t.Fatal(err)
		}
		if err := ddb.CreateTable(context.Background(), client, table); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	srv := start()
	return &Store{
		Env: map[string]string{
			"KV_PROVIDER": "dynamodb", "DYNAMODB_TABLE": table, "AWS_ENDPOINT_URL_DYNAMODB": srv.URL,
			"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
		},
		srv:     srv,
		restart: start,
	}
}
