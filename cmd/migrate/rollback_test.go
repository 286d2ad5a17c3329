package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// TestAPlainCopyThatCouldNotCarryDeletionsNamesTheMirrorToRun follows the
// runbook through a cutover, a rollback and a second cutover: the one
// rollback path is the mirror, and the plain copy each way refuses where it
// could not carry the other side's deletions, naming the exact command.
func TestAPlainCopyThatCouldNotCarryDeletionsNamesTheMirrorToRun(t *testing.T) {
	s := newStores(t)
	ctx := t.Context()
	dynamo, mongo := "dynamodb table "+s.dyn.Table(), "mongodb database "+s.mongo.Database().Name()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ok := func(args ...string) string {
		t.Helper()
		out, err := migrateCmd(t, s, args...)
		if err != nil {
			t.Fatalf("migrate %q: %v\n%s", args, err, out)
		}
		return out
	}
	refused := func(target string, args ...string) {
		t.Helper()
		out, err := migrateCmd(t, s, args...)
		want := `--mirror --confirm-target "` + target + `"`
		if !errors.Is(err, migrate.ErrWentBack) || !strings.Contains(err.Error(), want) {
			t.Fatalf("migrate %q = %v; want %v naming %s", args, err, migrate.ErrWentBack, want)
		}
		if out != "" {
			t.Fatalf("a refused copy printed a summary:\n%s", out)
		}
	}
	gone := func(p storage.KVProvider, key string) {
		t.Helper()
		if _, err := p.For("lolschedule").Get(ctx, key); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("%s came back: %v", key, err)
		}
	}
	for _, k := range []string{"sub:-100", "sub:-200"} {
		must(s.dyn.For("lolschedule").Put(ctx, k, []byte("on")))
	}

	// Cutover; the container unsubscribes a chat.
	ok("--from", "dynamodb", "--to", "mongodb")
	must(s.mongo.For("lolschedule").Delete(ctx, "sub:-100"))

	// Rollback: the plain reverse copy would keep sub:-100 on DynamoDB.
	refused(dynamo, "--from", "mongodb", "--to", "dynamodb")
	refused(dynamo, "--from", "mongodb", "--to", "dynamodb", "--overwrite")
	ok("--from", "mongodb", "--to", "dynamodb", "--mirror", "--confirm-target", dynamo)
	ok("--from", "mongodb", "--to", "dynamodb", "--verify")
	gone(s.dyn, "sub:-100")

	// Lambda serves and unsubscribes another chat; the second cutover's
	// plain copy would keep sub:-200 on MongoDB, and so would its rerun.
	must(s.dyn.For("lolschedule").Delete(ctx, "sub:-200"))
	refused(mongo, "--from", "dynamodb", "--to", "mongodb", "--dry-run")
	refused(mongo, "--from", "dynamodb", "--to", "mongodb")
	if _, err := migrateCmd(t, s, "--from", "dynamodb", "--to", "mongodb", "--verify-after-cutover"); !errors.Is(err, migrate.ErrWentBack) {
		t.Fatalf("the after-cutover check of a rolled-back cutover = %v, want %v", err, migrate.ErrWentBack)
	}
	ok("--from", "dynamodb", "--to", "mongodb", "--mirror", "--confirm-target", mongo)
	ok("--from", "dynamodb", "--to", "mongodb", "--verify")
	gone(s.mongo, "sub:-200")
	if out := ok("--from", "dynamodb", "--to", "mongodb", "--verify-after-cutover"); !strings.Contains(out, "nothing of the source lost") {
		t.Fatalf("after the second cutover:\n%s", out)
	}
	if out := ok("--from", "dynamodb", "--to", "mongodb"); !strings.Contains(out, "nothing to change") {
		t.Fatalf("a rerun of the second cutover's copy:\n%s", out)
	}
}
