// Package backendtest hands tests a fresh provider of every backend: memory,
// MongoDB (the server at MONGODB_TEST_URL), DynamoDB (the one at
// AWS_ENDPOINT_URL_DYNAMODB) and the embedded file, each emptied and closed
// when the test ends.
// Module tests use it to prove their concurrency claims on real servers.
package backendtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	ddb "github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

var seq atomic.Int64

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func name() string { return fmt.Sprintf("bt%d_%d", time.Now().UnixNano()%1e9, seq.Add(1)) }

// Each runs f once per backend, as a subtest named after it.
func Each(t *testing.T, f func(t *testing.T, p storage.KVProvider)) {
	backends := []struct {
		name string
		open func(t testing.TB) storage.KVProvider
	}{
		{"memory", func(testing.TB) storage.KVProvider { return memory.New() }},
		{"mongodb", func(t testing.TB) storage.KVProvider { return Mongo(t) }},
		{"dynamodb", func(t testing.TB) storage.KVProvider { return Dynamo(t) }},
		{"bolt", func(t testing.TB) storage.KVProvider { return Bolt(t) }},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.open(t)) })
	}
}

// FerretDBLimit is why value-matched CAS races are not tested on FerretDB:
// its filtered update is a query followed by an update by _id, not atomic.
// Real MongoDB (make test-mongo) runs those cases.
const FerretDBLimit = "FerretDB v1 does not make a filtered UpdateOne atomic under concurrency, so racing " +
	"value-matched CAS cannot be exact there (the documented server limit); run `make test-mongo` against a real MongoDB"

// AtomicValueCAS reports whether p's server does value-matched CAS
// atomically under races: false only for a MongoDB provider on FerretDB.
func AtomicValueCAS(t *testing.T, p storage.KVProvider) bool {
	mp, ok := p.(*mongodb.Provider)
	return !ok || !IsFerretDB(t, mp)
}

// IsFerretDB tells FerretDB from MongoDB by its buildInfo.
func IsFerretDB(t testing.TB, p *mongodb.Provider) bool {
	t.Helper()
	var info bson.M
	if err := p.Database().RunCommand(context.Background(), bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		t.Fatalf("buildInfo: %v", err)
	}
	_, ferret := info["ferretdbVersion"]
	return ferret
}

// Mongo opens a fresh database on the test MongoDB server, dropped when
// the test ends.
func Mongo(t testing.TB) *mongodb.Provider {
	t.Helper()
	url := testenv.Require(t, "MONGODB_TEST_URL")
	p, err := mongodb.Open(context.Background(), mongodb.Config{URL: url, Database: name(), AllowFerretDB: true}, mongodb.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.Database().Drop(context.Background())
		_ = p.Close(context.Background())
	})
	return p
}

// Dynamo creates a fresh table on the test DynamoDB server, deleted when
// the test ends, and opens a provider on it with opts.
func Dynamo(t testing.TB, opts ...ddb.Option) *ddb.Provider {
	t.Helper()
	testenv.Require(t, "AWS_ENDPOINT_URL_DYNAMODB")
	ctx := context.Background()
	client, err := ddb.NewClient(ctx, defaultchain.Load)
	if err != nil {
		t.Fatal(err)
	}
	table := name()
	if err := ddb.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ddb.DeleteTable(context.Background(), client, table) })
	p, err := ddb.Open(ctx, ddb.Config{Table: table, AWS: defaultchain.Load}, append([]ddb.Option{ddb.WithLogger(quiet)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Bolt opens a fresh embedded store in the test's temporary directory.
func Bolt(t testing.TB) *bolt.Provider {
	t.Helper()
	p, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	return p
}
