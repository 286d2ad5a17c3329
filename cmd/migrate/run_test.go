package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// stores names one fresh table and database for a test.
type stores struct {
	dyn, dyn2 *dynamodb.Provider
	mongo     *mongodb.Provider
}

func newStores(t *testing.T) *stores {
	return &stores{
		dyn:   backendtest.Dynamo(t),
		dyn2:  backendtest.Dynamo(t),
		mongo: backendtest.Mongo(t),
	}
}

func (s *stores) env(t *testing.T) func(string) string {
	m := map[string]string{"MONGO_URL": testenv.Require(t, "MONGODB_TEST_URL"), "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": s.mongo.Database().Name(), "DYNAMODB_TABLE": s.dyn.Table()}
	return func(k string) string { return m[k] }
}

// migrateCmd runs the command in-process and returns its stdout.
func migrateCmd(t *testing.T, s *stores, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(t.Context(), args, s.env(t), &out, &errOut)
	return out.String(), err
}

// seed writes the data set the issue names through the provider's Put.
func seed(t *testing.T, p storage.KVProvider) {
	t.Helper()
	ctx := t.Context()
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	puts := map[string]map[string][]byte{
		"alpha": {
			"binary":                  all,
			"empty":                   {},
			strings.Repeat("k", 1024): []byte("longest key"),
			"日本語-😀-\U0010ffff":        []byte("unicode key"),
			"max":                     bytes.Repeat([]byte{0xAB}, storage.MaxValueBytes),
		},
		"misc": {"last_ping": []byte(`{"at":"2026-11-29T08:30:00Z","chat_id":-100,"user_id":3}`)},
	}
	for m, kv := range puts {
		for k, v := range kv {
			if err := p.For(m).Put(ctx, k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	var items []storage.Item
	for i := range 120 {
		items = append(items, storage.Item{Namespace: "beta-2", Key: fmt.Sprintf("user:%04d", i), Value: []byte(fmt.Sprint(i)), UpdatedAt: int64(i)})
	}
	if l, ok := p.(storage.Loader); ok {
		if _, err := l.Load(ctx, items, storage.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// dump reads everything a provider holds, updatedAt included.
func dump(t *testing.T, w storage.Walker) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err := w.Walk(t.Context(), func(r storage.Raw) error {
		if r.Namespace == storage.CoreNamespace && strings.HasPrefix(r.Key, "migrate:since:") {
			return nil // the migrator's checkpoint of a copy, not data
		}
		out[r.Namespace+"/"+r.Key] = fmt.Sprintf("%x@%d", r.Value, r.UpdatedAt)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRoundTripDynamoMongoDynamoIsByteIdentical(t *testing.T) {
	s := newStores(t)
	seed(t, s.dyn)
	want := dump(t, s.dyn)

	out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb")
	if err != nil {
		t.Fatalf("dynamodb -> mongodb: %v\n%s", err, out)
	}
	if !strings.Contains(out, "done: 126 items read, 126 written") {
		t.Fatalf("summary:\n%s", out)
	}
	if out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--verify"); err != nil || !strings.Contains(out, "verify: identical (3 modules)") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	if got := dump(t, s.mongo); !maps.Equal(got, want) {
		t.Fatalf("mongodb holds something else than the source")
	}

	out, err = migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb")
	if err != nil || !strings.Contains(out, "nothing to change") {
		t.Fatalf("a second run must change nothing and say so: %v\n%s", err, out)
	}

	out, err = migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--to-table", s.dyn2.Table())
	if err != nil {
		t.Fatalf("mongodb -> dynamodb: %v\n%s", err, out)
	}
	if got := dump(t, s.dyn2); !maps.Equal(got, want) {
		t.Fatalf("the round trip changed the data")
	}
	out, err = migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--to-table", s.dyn2.Table())
	if err != nil || !strings.Contains(out, "nothing to change") {
		t.Fatalf("a rerun into dynamodb must change nothing: %v\n%s", err, out)
	}
}

func TestTheAppReadsMigratedData(t *testing.T) {
	s := newStores(t)
	seed(t, s.dyn)
	if out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	srv := telegramtest.New(t)
	client, _ := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
	a, err := core.New(s.mongo, client, core.WithModules([]app.Factory{misc.Factory}), core.WithOwner(1))
	if err != nil {
		t.Fatal(err)
	}
	u := telegramtest.Text(1, 1, "/mstats")
	u.ID = 1
	if err := a.HandleUpdate(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if got := srv.Messages()[0].Text; got != "Last /ping: 29 Nov 2026 15:30 (Vietnam time) by user 3 in chat -100" {
		t.Fatalf("/mstats over the migrated store: %q", got)
	}
}

func TestInvalidSourceKeysAreReportedNeverDropped(t *testing.T) {
	s := newStores(t)
	seed(t, s.dyn)
	// Items the old backend let in: a key with "/" and a reserved name.
	for _, sk := range []string{"a/b", "__meta__"} {
		_, err := s.dyn.Client().PutItem(t.Context(), &awsddb.PutItemInput{TableName: aws.String(s.dyn.Table()), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "alpha"}, "sk": &types.AttributeValueMemberS{Value: sk},
			"value": &types.AttributeValueMemberS{Value: "old string value"},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb")
	if !errors.Is(err, migrate.ErrInvalidItems) || !strings.Contains(out, `invalid: alpha/"a/b"`) {
		t.Fatalf("run = %v\n%s", err, out)
	}
	if n := len(dump(t, s.mongo)); n != 0 {
		t.Fatalf("a failed run wrote %d items", n)
	}
	out, err = migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--skip-invalid")
	if err != nil || !strings.Contains(out, "2 invalid skipped") || !strings.Contains(out, `invalid: alpha/"a/b"`) {
		t.Fatalf("--skip-invalid: %v\n%s", err, out)
	}
}

func TestDryRunCountsAndWritesNothing(t *testing.T) {
	s := newStores(t)
	seed(t, s.dyn)
	out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"beta-2", "120", "dry run: 126 items read"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, out)
		}
	}
	if n := len(dump(t, s.mongo)); n != 0 {
		t.Fatalf("a dry run wrote %d items", n)
	}
}

func TestVerifyCatchesEveryDifference(t *testing.T) {
	tests := []struct {
		name   string
		damage func(ctx context.Context, p storage.KVProvider) error
		want   string
	}{
		{"a changed byte", func(ctx context.Context, p storage.KVProvider) error {
			return p.For("beta-2").Put(ctx, "user:0007", []byte("8"))
		}, `changed: beta-2/"user:0007"`},
		{"a missing item", func(ctx context.Context, p storage.KVProvider) error {
			return p.For("alpha").Delete(ctx, "empty")
		}, `missing: alpha/"empty"`},
		{"an extra item", func(ctx context.Context, p storage.KVProvider) error {
			return p.For("misc").Put(ctx, "stray", []byte("x"))
		}, `extra: misc/"stray"`},
		{"an extra module", func(ctx context.Context, p storage.KVProvider) error {
			return p.For("zeta").Put(ctx, "k", []byte("x"))
		}, `extra: zeta/"k"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStores(t)
			seed(t, s.dyn)
			if out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb"); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if err := tt.damage(t.Context(), s.mongo); err != nil {
				t.Fatal(err)
			}
			out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--verify")
			if !errors.Is(err, migrate.ErrDifferent) || !strings.Contains(out, tt.want) || !strings.Contains(out, "DIFFERENT") {
				t.Fatalf("verify = %v\n%s", err, out)
			}
		})
	}
}

// TestACutoverAnOperatorCanRerunVerifyAndUndo follows the runbook after
// the container has served for a day: a rerun of the forward copy rolls
// nothing back and brings no deletion back, the after-cutover check passes
// while the exact one cannot, and the rollback mirror carries the deletion.
func TestACutoverAnOperatorCanRerunVerifyAndUndo(t *testing.T) {
	s := newStores(t)
	ctx := t.Context()
	dyn, mongo := s.dyn.For("coin"), s.mongo.For("coin")
	for k, v := range map[string]string{"portfolio:1": "cash=1000", "portfolio:2": "cash=20", "sub:-100": "on"} {
		if err := dyn.Put(ctx, k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb"); err != nil {
		t.Fatalf("copy: %v\n%s", err, out)
	}
	if out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--verify"); err != nil || !strings.Contains(out, "identical") {
		t.Fatalf("right after the copy the target is exact: %v\n%s", err, out)
	}

	// A day on the container: a trade, a new portfolio, an unsubscribe.
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(mongo.Put(ctx, "portfolio:1", []byte("cash=5000")))
	must(mongo.Put(ctx, "portfolio:3", []byte("cash=7")))
	must(mongo.Delete(ctx, "sub:-100"))

	if _, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--verify"); !errors.Is(err, migrate.ErrDifferent) {
		t.Fatalf("the exact check after a day = %v, want DIFFERENT", err)
	}
	out, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--verify-after-cutover")
	if err != nil || !strings.Contains(out, "nothing of the source lost or rolled back") {
		t.Fatalf("after the cutover: %v\n%s", err, out)
	}
	// coin: same 1 (portfolio:2), newer 1, created 1, deleted 1.
	if !strings.Contains(out, fmt.Sprintf("%-24s %8d %8d %8d %8d %8d %8d  ok", "coin", 1, 1, 1, 1, 0, 0)) {
		t.Fatalf("after-cutover counts:\n%s", out)
	}

	out, err = migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb")
	if err != nil || !strings.Contains(out, "kept: 1 target items newer than the source's; 1 deleted on the target") {
		t.Fatalf("rerun of the forward copy: %v\n%s", err, out)
	}
	if v, _ := mongo.Get(ctx, "portfolio:1"); string(v) != "cash=5000" {
		t.Fatalf("the rerun rolled the portfolio back to %q", v)
	}
	if _, err := mongo.Get(ctx, "sub:-100"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the rerun brought the unsubscribed chat back: %v", err)
	}

	// Roll back: the mirror refuses without naming its target, lists first.
	if _, err := migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--mirror"); err == nil || !strings.Contains(err.Error(), "--confirm-target") {
		t.Fatalf("an unconfirmed mirror = %v", err)
	}
	out, err = migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--mirror", "--dry-run")
	if err != nil || !strings.Contains(out, `would delete: coin/"sub:-100"`) {
		t.Fatalf("mirror dry run: %v\n%s", err, out)
	}
	if _, err := dyn.Get(ctx, "sub:-100"); err != nil {
		t.Fatal("the dry run deleted something")
	}
	target := "dynamodb table " + s.dyn.Table()
	if out, err := migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--mirror", "--confirm-target", target); err != nil {
		t.Fatalf("mirror: %v\n%s", err, out)
	}
	if out, err := migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--verify"); err != nil || !strings.Contains(out, "identical") {
		t.Fatalf("after the rollback mirror: %v\n%s", err, out)
	}
	if _, err := dyn.Get(ctx, "sub:-100"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the rollback kept a chat the users unsubscribed: %v", err)
	}
	if v, _ := dyn.Get(ctx, "portfolio:1"); string(v) != "cash=5000" {
		t.Fatalf("the rollback lost the container's trade: %q", v)
	}
}

func TestAFileStoreCopiesToAndFromTheServers(t *testing.T) {
	s := newStores(t)
	seed(t, s.dyn)
	want := dump(t, s.dyn)
	file := filepath.Join(t.TempDir(), "backup.db")
	for _, step := range [][]string{
		{"--from", "dynamodb", "--to", "bolt", "--to-path", file}, // a file backup of DynamoDB
		{"--from", "dynamodb", "--to", "bolt", "--to-path", file, "--verify"},
		{"--from", "bolt", "--from-path", file, "--to", "mongodb"}, // a self-hoster moving to MongoDB
		{"--from", "bolt", "--from-path", file, "--to", "mongodb", "--verify"},
	} {
		if out, err := migrateCmd(t, s, step...); err != nil {
			t.Fatalf("migrate %v: %v\n%s", step, err, out)
		}
	}
	if got := dump(t, s.mongo); !maps.Equal(got, want) {
		t.Fatal("DynamoDB -> file -> MongoDB changed the data")
	}
}
