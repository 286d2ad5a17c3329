package trading

import (
	"errors"
	"testing"
)

// A source that failed because the bot's own store did is not a provider
// that failed: when nothing answers, the caller gets an error to retry the
// update with, and no user is told that every source failed.
func TestAStoreFailureIsNotASourceFailure(t *testing.T) {
	tests := []struct {
		name    string
		sources []*fakeSource
		wantErr error // nil: a price
		not     error
	}{
		{"the store failed, the other source is down", []*fakeSource{{storeDown: true}, {down: true}}, ErrStore, ErrNoPrice},
		{"the store failed, the other source answers", []*fakeSource{{storeDown: true}, {}}, nil, nil},
		{"every provider down", []*fakeSource{{down: true}, {down: true}}, ErrNoPrice, ErrStore},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0
			_, err := newChain(&now, tt.sources...).Price(t.Context(), "BTC")
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) || tt.not != nil && errors.Is(err, tt.not) {
				t.Fatalf("Price = %v, want %v (and not %v)", err, tt.wantErr, tt.not)
			}
		})
	}
}
