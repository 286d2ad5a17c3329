package stores_test

import (
	"log/slog"
	"testing"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/storage/stores"
)

// A runtime opens only the stores of its set: another is refused before
// any connection, the error naming what was asked for, why, and what the
// set opens.
func TestASetOpensOnlyItsOwnBackends(t *testing.T) {
	set := stores.Set{config.BackendMemory: stores.Memory, config.BackendDynamoDB: stores.DynamoDB}
	log := slog.New(slog.DiscardHandler)

	p, err := set.Open(t.Context(), &config.Config{Backend: config.BackendMemory}, log)
	if err != nil {
		t.Fatalf("the memory store: %v", err)
	}
	defer p.Close(t.Context())

	_, err = set.Open(t.Context(), &config.Config{Backend: config.BackendBolt, BackendReason: "BOLT_PATH is set"}, log)
	if err == nil {
		t.Fatal("a set without bolt opened bolt")
	}
	if want := "storage: bolt (BOLT_PATH is set) is not a store this runtime opens: it opens dynamodb or memory"; err.Error() != want {
		t.Fatalf("the refusal: %q, want %q", err, want)
	}
}
