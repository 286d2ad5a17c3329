package trading

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// valuesOn is a market's Values over s, BTC priced at price, its clock at
// *now.
func valuesOn(s storage.KVStore, now *time.Time, price string) *Values {
	clock := func() time.Time { return *now }
	q := &Quotes{Store: s, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clock, Fresh: time.Second,
		Sources: []Source{{Name: "fixed", Price: func(context.Context, string, time.Time) (decimal.Decimal, error) { return d(price), nil }}}}
	return &Values{Desk: &Desk{Kit: &Kit{Market: usd, Name: "coin"}, Quotes: q}}
}

// days is each point's day and total value, "day=total".
func days(t *testing.T, v *Values, user int64) []string {
	t.Helper()
	pts, err := Points(context.Background(), v.Quotes.Store, user)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(pts))
	for i, p := range pts {
		out[i] = p.Day + "=" + p.Cash.Add(p.Holdings).String()
	}
	return out
}

// The daily job on every backend: each portfolio gets one point a day at
// that day's prices, however often the day's run is repeated or raced; a
// run caught up late records the day it missed; a day no run reached
// stays a gap; a year of days is kept.
func TestTheDailyValuesOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, prov storage.KVProvider) {
		ctx := context.Background()
		s := prov.For("coin")
		now := time.Date(2026, 11, 29, 17, 0, 0, 0, time.UTC) // midnight in Vietnam: the 29th closes
		if _, err := update(ctx, s, 1, func(p *Portfolio) error {
			if err := p.TopUp(usd, d("1000"), now); err != nil {
				return err
			}
			return p.BuyQty(usd, "BTC", d("0.01"), d("50000"), now)
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := update(ctx, s, 2, func(p *Portfolio) error { return p.TopUp(usd, d("10"), now) }); err != nil {
			t.Fatal(err)
		}
		v := valuesOn(s, &now, "60000")
		run := func() {
			t.Helper()
			if err := v.record(ctx, app.CronRun{Slot: now}); err != nil {
				t.Fatal(err)
			}
		}
		run()
		run() // a retry of the same slot
		check := func(user int64, want ...string) {
			t.Helper()
			if got := days(t, v, user); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("user %d's days %v; want %v", user, got, want)
			}
		}
		check(1, "2026-11-29=1100") // 500 cash + 0.01 BTC at 60,000
		check(2, "2026-11-29=10")

		// The next day, both runtimes at once (the dispatch would let one
		// run; this is the job's own guard).
		now = now.AddDate(0, 0, 1)
		v2 := valuesOn(s, &now, "70000")
		v.Quotes = v2.Quotes
		if backendtest.AtomicValueCAS(t, prov) {
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					if err := v2.record(ctx, app.CronRun{Slot: now}); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		} else {
			run()
		}
		check(1, "2026-11-29=1100", "2026-11-30=1200")

		// No run on Dec 1; Dec 2's run is caught up the next morning.
		now = time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
		run()
		check(1, "2026-11-29=1100", "2026-11-30=1200", "2026-12-02=1200")

		// A year of days is kept, the oldest dropped first.
		full := make([]DayPoint, MaxValueDays)
		for i := range full {
			full[i] = DayPoint{Day: time.Date(2025, 1, 1, 0, 0, 0, 0, ICT).AddDate(0, 0, i).Format(time.DateOnly), Cash: d("1")}
		}
		if err := s.PutJSON(ctx, valueKey(2), full); err != nil {
			t.Fatal(err)
		}
		run()
		got := days(t, v, 2)
		if len(got) != MaxValueDays || got[0] != "2025-01-02=1" || got[len(got)-1] != "2026-12-02=10" {
			t.Fatalf("%d days from %s to %s; want %d, the first dropped, Dec 2 last", len(got), got[0], got[len(got)-1], MaxValueDays)
		}
	})
}

// A slot run late (by hand, as late as the next fire) records its own
// day, not the clock's; the next slot then records the next day.
func TestASlotRunLateRecordsItsOwnDay(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	slot := time.Date(2026, 11, 29, 17, 0, 0, 0, time.UTC)
	if _, err := update(ctx, s, 1, func(p *Portfolio) error { return p.TopUp(usd, d("10"), slot) }); err != nil {
		t.Fatal(err)
	}
	now := slot.AddDate(0, 0, 1).Add(30 * time.Second) // the next fire's minute
	v := valuesOn(s, &now, "60000")
	for _, at := range []time.Time{slot, slot.AddDate(0, 0, 1)} {
		if err := v.record(ctx, app.CronRun{Slot: at}); err != nil {
			t.Fatal(err)
		}
	}
	if got := days(t, v, 1); fmt.Sprint(got) != "[2026-11-29=10 2026-11-30=10]" {
		t.Fatalf("days %v; want the 29th from its late slot, then the 30th", got)
	}
}

// closedDay is the day the latest midnight-in-Vietnam fire closed.
func TestClosedDay(t *testing.T) {
	tests := []struct {
		now  string
		want string
	}{
		{"2026-11-29T17:00:00Z", "2026-11-29"}, // the fire itself
		{"2026-11-29T23:00:00Z", "2026-11-29"}, // a retry that hour
		{"2026-11-30T16:59:00Z", "2026-11-29"}, // caught up just before the next fire
		{"2026-11-30T08:00:00Z", "2026-11-29"},
		{"2026-11-30T17:00:00Z", "2026-11-30"},
	}
	for _, tt := range tests {
		now, _ := time.Parse(time.RFC3339, tt.now)
		if got := closedDay(now); got != tt.want {
			t.Errorf("closedDay(%s) = %s; want %s", tt.now, got, tt.want)
		}
	}
}
