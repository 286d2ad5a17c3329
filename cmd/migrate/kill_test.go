package main

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestARunKilledMidwayCompletesOnRerun(t *testing.T) {
	s := newStores(t)
	var items []storage.Item
	for i := range 4_000 {
		items = append(items, storage.Item{Namespace: fmt.Sprintf("mod%d", i%4), Key: fmt.Sprintf("k%06d", i), Value: []byte(strings.Repeat("v", i%50)), UpdatedAt: int64(i)})
	}
	if _, err := s.mongo.Load(t.Context(), items, storage.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want := dump(t, s.mongo)

	env := map[string]string{}
	for _, k := range []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"} {
		env[k] = testenv.Require(t, k)
	}
	maps.Copy(env, map[string]string{"MONGO_URL": testenv.Require(t, "MONGODB_TEST_URL"), "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": s.mongo.Database().Name()})
	p := testenv.Start(t, env, runtimetest.Build(t, "./cmd/migrate"), "--from", "mongodb", "--to", "dynamodb", "--to-table", s.dyn.Table())

	// Kill it with SIGKILL as soon as the target holds some items.
	count := func() int32 {
		out, err := s.dyn.Client().Scan(context.Background(), &awsddb.ScanInput{TableName: aws.String(s.dyn.Table()), Select: types.SelectCount})
		if err != nil {
			return 0
		}
		return out.Count
	}
	if err := testenv.Eventually(time.Minute, func() error {
		if p.Exited() || count() > 0 {
			return nil
		}
		return fmt.Errorf("nothing written yet")
	}); err != nil {
		t.Fatal(err)
	}
	if p.Exited() {
		t.Fatal("the run finished before it could be killed; the test proves nothing")
	}
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.Wait(context.Background())
	partial := len(dump(t, s.dyn))
	if partial == 0 || partial == len(want) {
		t.Fatalf("killed run left %d of %d items", partial, len(want))
	}
	t.Logf("killed after %d of %d items", partial, len(want))

	out, err := migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--to-table", s.dyn.Table())
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	if got := dump(t, s.dyn); !maps.Equal(got, want) {
		t.Fatalf("after the rerun the target holds %d items, want %d identical ones", len(got), len(want))
	}
	if !strings.Contains(out, "already up to date") {
		t.Fatalf("the rerun should skip what the killed run wrote:\n%s", out)
	}
}
