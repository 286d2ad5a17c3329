package trading

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// A symbol whose source is slow holds only its own alerts: eight such
// symbols sorted before a ninth leave its crossing to set its timer in
// the same check, and the check, cut off with the eight unpriced, says it did not
// finish and names them.
func TestASlowSymbolHoldsOnlyItsOwnAlerts(t *testing.T) {
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	budget, over := context.WithCancel(context.Background())
	defer over()
	var once sync.Once
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{}), bot, time.Minute)
	a.Timers = setThen{a.Timers, func() { once.Do(over) }} // the budget ends once the ninth's timer is set
	a.Desk.Quotes.Sources = []Source{{Name: "Slow", Price: func(ctx context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		if sym == "ZZZ" {
			return d("90"), nil
		}
		<-ctx.Done() // takes longer than the check has
		return decimal.Zero, ctx.Err()
	}}}
	slow := []string{"AA1", "AA2", "AA3", "AA4", "AA5", "AA6", "AA7", "AA8"}
	for _, sym := range slow {
		arm(t, a, 1, sym, true, "10", 1)
	}
	arm(t, a, 2, "ZZZ", false, "100", 2)
	err := a.Check(budget)
	if err := a.tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if sent := bot.texts(); len(sent) != 1 || !strings.Contains(sent[0], "ZZZ") {
		t.Fatalf("sent %q; want the ninth symbol's alert", sent)
	}
	if !errors.Is(err, ErrCheckPartial) || !errors.Is(err, app.ErrPartial) || !strings.Contains(err.Error(), strings.Join(slow, ", ")) {
		t.Fatalf("the check says %v; want that it did not finish, naming %v", err, slow)
	}
	if pending(t, a, 1) != len(slow) {
		t.Fatalf("the slow symbols' alerts: %d pending, want all %d waiting", pending(t, a, 1), len(slow))
	}
}

// setThen calls then after each Set.
type setThen struct {
	app.Timers
	then func()
}

func (s setThen) Set(ctx context.Context, t app.Timer) (app.Timer, error) {
	defer s.then()
	return s.Timers.Set(ctx, t)
}
