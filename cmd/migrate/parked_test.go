package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// TestAMoveOfAStoreWithParkedUpdatesIsRefused: a polling container's inbox
// holds updates Telegram will not send again and only a container works; a
// rollback that carried them to the Lambda's table would lose them. Every
// copy and mirror from such a store refuses, naming the count and the way
// to work them off; a verify still reads.
func TestAMoveOfAStoreWithParkedUpdatesIsRefused(t *testing.T) {
	s := newStores(t)
	ctx := t.Context()
	dynamo := "dynamodb table " + s.dyn.Table()
	core := s.mongo.For(storage.CoreNamespace)
	// Keys as internal/poller/inbox.go writes them: a chat's lane, a solo one.
	parked := []string{"inbox:c-100:0000000000000000042", "inbox:s:0000000000000000043"}
	for _, k := range parked {
		if err := core.Put(ctx, k, []byte(`{"update_id":42}`)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
	}{
		{"the rollback's look", []string{"--from", "mongodb", "--to", "dynamodb", "--mirror", "--dry-run"}},
		{"the rollback mirror", []string{"--from", "mongodb", "--to", "dynamodb", "--mirror", "--confirm-target", dynamo}},
		{"a plain copy", []string{"--from", "mongodb", "--to", "dynamodb", "--overwrite"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := migrateCmd(t, s, tt.args...)
			if !errors.Is(err, migrate.ErrParked) {
				t.Fatalf("migrate %q = %v, want %v\n%s", tt.args, err, migrate.ErrParked, out)
			}
			for _, want := range []string{"holds 2 in its inbox", "TELEGRAM_WEBHOOK_URL", "the parked updates are worked"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal lacks %q: %v", want, err)
				}
			}
			if n := len(dump(t, s.dyn)); n != 0 {
				t.Fatalf("a refused move wrote %d items", n)
			}
		})
	}
	if _, err := migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--verify"); errors.Is(err, migrate.ErrParked) {
		t.Fatalf("verify refused: %v", err)
	}
	for _, k := range parked { // the container worked them off
		if err := core.Delete(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := migrateCmd(t, s, "--from", "mongodb", "--to", "dynamodb", "--mirror", "--confirm-target", dynamo); err != nil {
		t.Fatalf("the mirror of a drained store: %v\n%s", err, out)
	}
}
