package pause_test

import (
	"context"
	"errors"
	"math"
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

func TestBackoffWaitsBetweenHalfTheBaseAndADoublingCeiling(t *testing.T) {
	const base, most = 100 * time.Millisecond, 3 * time.Second
	tests := []struct {
		attempt  int
		lo, hi   time.Duration
		describe string
	}{
		{-1, base / 2, base, "a negative attempt is the first"},
		{0, base / 2, base, "the first retry waits up to base"},
		{1, base / 2, 2 * base, "each retry doubles the ceiling"},
		{4, base / 2, 16 * base, "the fifth retry"},
		{5, base / 2, most, "the ceiling stops at most"},
		{math.MaxInt, base / 2, most, "however many attempts, no overflow"},
	}
	for _, tt := range tests {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := pause.Backoff(tt.attempt, base, most)
			if d < tt.lo || d > tt.hi {
				t.Fatalf("%s: Backoff(%d) = %s, want %s to %s", tt.describe, tt.attempt, d, tt.lo, tt.hi)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("%s: 200 waits all %v: no jitter", tt.describe, seen)
		}
	}
}

func TestBackoffWithoutBoundsIsNoWait(t *testing.T) {
	for _, b := range [][2]time.Duration{{0, time.Second}, {time.Second, 0}, {-time.Second, time.Second}} {
		if d := pause.Backoff(3, b[0], b[1]); d != 0 {
			t.Errorf("Backoff(3, %s, %s) = %s, want 0", b[0], b[1], d)
		}
	}
}

func TestBackoffWithMostBelowBaseStaysWithinMost(t *testing.T) {
	for range 100 {
		if d := pause.Backoff(0, time.Second, 10*time.Millisecond); d < 5*time.Millisecond || d > 10*time.Millisecond {
			t.Fatalf("Backoff = %s, want 5ms to 10ms", d)
		}
	}
}

func TestBackoffAtTheLargestBoundsDoesNotOverflow(t *testing.T) {
	for _, attempt := range []int{0, 1, 62, 63, 64, math.MaxInt} {
		if d := pause.Backoff(attempt, time.Nanosecond, math.MaxInt64); d < 0 {
			t.Fatalf("Backoff(%d, 1ns, max) = %s", attempt, d)
		}
	}
}
