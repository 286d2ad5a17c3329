package trading

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// coinRange is a range like a coin market's, for these tests.
var coinRange = PriceRange{Min: decimal.New(1, -12), Max: decimal.New(1, 8)}

// A price outside its market's sane range is the source's failure, logged:
// the next source is asked, and with none in range there is no price; a
// cached price out of range is asked again. No absurd price reaches a
// desk, an alert or the Mini App.
func TestAPriceOutsideItsMarketsRangeIsASourceFailure(t *testing.T) {
	for _, absurd := range []string{"1e10000", "1e-10000", "1e15", "1e400", "100000000.01", "0.0000000000009", "0.1000000000000000000000000000000000001"} {
		t.Run(absurd, func(t *testing.T) {
			ctx := context.Background()
			var logs bytes.Buffer
			s := memory.New().For("coin")
			bad, good := newTable(map[string]string{"BTC": absurd}), newTable(map[string]string{"BTC": "60000"})
			second := good.source()
			second.Name = "Good"
			qs := &Quotes{Store: s, Log: slog.New(slog.NewTextHandler(&logs, nil)), Now: func() time.Time { return alertNow },
				Fresh: time.Minute, Sources: []Source{bad.source(), second}, Range: coinRange}
			q, err := qs.Price(ctx, "BTC")
			if err != nil || q.Source != "Good" || !q.Price.Equal(d("60000")) {
				t.Fatalf("price %+v, %v; want the next source's", q, err)
			}
			if !strings.Contains(logs.String(), "price source failed") || !strings.Contains(logs.String(), "outside") {
				t.Fatalf("log %q; want the absurd answer logged as the source's failure", logs.String())
			}
			qs.Sources = qs.Sources[:1]
			if err := s.PutJSON(ctx, "price:BTC", Quote{Price: d(absurd), Source: "Fake", At: alertNow}); err != nil {
				t.Fatal(err)
			}
			if q, err := qs.Price(ctx, "BTC"); !errors.Is(err, ErrNoPrice) {
				t.Fatalf("with only the absurd source, and its price cached: %+v, %v; want no price", q, err)
			}
		})
	}
}

// A level typed for an alert is bounded by the market's range too, with
// a clear answer.
func TestAnAlertLevelOutsideItsMarketsRangeIsRefused(t *testing.T) {
	a := replica(memory.New().For("coin"), &clock{t: alertNow}, newTable(map[string]string{}), &sentBot{}, 0)
	a.Desk.Quotes.Range = coinRange
	a.Desk.PricePlaces = func(p decimal.Decimal) int32 { return max(2, -p.Exponent()) }
	for args, want := range map[string]string{
		"BTC above 1e15":            "That level is too large: at most $100,000,000.00.",
		"BTC above 100000000.01":    "That level is too large: at most $100,000,000.00.",
		"BTC below 0.0000000000001": "That level is too small: at least $0.000000000001.",
		"BTC below 1e-13":           "That level is too small: at least $0.000000000001.",
	} {
		_, err := a.ParseAlert(english, args)
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v; want %q", args, err, want)
		}
	}
	if _, err := a.ParseAlert(english, "BTC above 99999999"); err != nil {
		t.Fatal(err)
	}
}
