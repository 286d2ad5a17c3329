package trading

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// fakeSource knows BTC; down (or its store down), it fails every call;
// calls counts them.
type fakeSource struct {
	down      bool
	storeDown bool // fails reading a credential it keeps in the store
	calls     int
}

func (f *fakeSource) source(name string) Source {
	return Source{Name: name, Price: func(_ context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		f.calls++
		switch {
		case f.down:
			return decimal.Zero, errors.New("503")
		case f.storeDown:
			return decimal.Zero, fmt.Errorf("its key: %w: connection refused", ErrStore)
		case sym == "BTC":
			return d("60000"), nil
		}
		return decimal.Zero, ErrUnknown
	}}
}

func newChain(now *time.Time, fakes ...*fakeSource) *Quotes {
	qs := &Quotes{Store: memory.New().For("coin"), Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now: func() time.Time { return *now }, Fresh: 30 * time.Second, UnknownFor: UnknownFor}
	for i, f := range fakes {
		qs.Sources = append(qs.Sources, f.source(fmt.Sprint("source", i)))
	}
	return qs
}

func TestASymbolEverySourceCallsUnknownIsNotAskedAgainForAWhile(t *testing.T) {
	tests := []struct {
		name      string
		down      bool          // the second source fails instead of answering
		after     time.Duration // between the two asks
		wantErr   error
		wantCalls int // by each source that answers, over both asks
	}{
		{"asked again at once: no call", false, time.Second, ErrUnknownSymbol, 1},
		{"asked again just before the time is up: no call", false, UnknownFor - time.Second, ErrUnknownSymbol, 1},
		{"asked again after it: the sources are asked", false, UnknownFor, ErrUnknownSymbol, 2},
		{"one source failed, so nobody said unknown: asked again", true, time.Second, ErrNoPrice, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0
			a, b, c := &fakeSource{}, &fakeSource{down: tt.down}, &fakeSource{}
			qs := newChain(&now, a, b, c)
			for range 2 {
				if _, err := qs.Price(t.Context(), "NOPE"); !errors.Is(err, tt.wantErr) {
					t.Fatalf("Price = %v, want %v", err, tt.wantErr)
				}
				now = now.Add(tt.after)
			}
			if a.calls != tt.wantCalls || c.calls != tt.wantCalls {
				t.Fatalf("calls %d, %d, %d; want %d from each that answers", a.calls, b.calls, c.calls, tt.wantCalls)
			}
		})
	}
}

func TestTheUnknownSymbolsRecordStaysSmall(t *testing.T) {
	now := t0
	src := &fakeSource{}
	qs := newChain(&now, src)
	ask := func(sym string) {
		if _, err := qs.Price(t.Context(), sym); !errors.Is(err, ErrUnknownSymbol) {
			t.Fatalf("Price(%s) = %v", sym, err)
		}
	}
	ask("OLD")
	now = now.Add(UnknownFor) // OLD expires: pruned by the next write
	for i := range maxUnknown + 1 {
		ask(fmt.Sprint("X", i))
		now = now.Add(time.Millisecond)
	}
	var u unknownSymbols
	if err := qs.Store.GetJSON(t.Context(), unknownKey, &u); err != nil {
		t.Fatal(err)
	}
	_, old := u["OLD"]
	_, first := u["X0"]
	if len(u) != maxUnknown || old || first {
		t.Fatalf("%d symbols remembered (OLD %v, X0 %v); want %d, the oldest and the expired gone", len(u), old, first, maxUnknown)
	}
	calls := src.calls
	ask(fmt.Sprint("X", maxUnknown))
	if src.calls != calls {
		t.Fatal("the newest unknown symbol was asked again")
	}
	if q, err := qs.Price(t.Context(), "BTC"); err != nil || !q.Price.Equal(d("60000")) {
		t.Fatalf("a known symbol: %v, %v", q, err)
	}
}
