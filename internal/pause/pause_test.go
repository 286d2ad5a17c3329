package pause_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/pause"
)

func TestForReturnsTheContextsErrorWhenItEndsFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := pause.For(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("For = %v, want context.Canceled", err)
	}
}

func TestForReturnsNilOnceTheWaitIsOver(t *testing.T) {
	if err := pause.For(t.Context(), 0); err != nil {
		t.Fatalf("For = %v", err)
	}
}
