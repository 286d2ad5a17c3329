package trading

import (
	"context"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// alertTrips is the store's round trips of a check and the tick after it,
// with n users' alerts crossed (one each: the tick's workers end them side
// by side, and one user's record would make them retry their swaps).
func alertTrips(t *testing.T, n int) int64 {
	counting := storagetest.NewCounting(memory.New(), 0)
	s := counting.For("coin")
	clk := &clock{t: alertNow}
	a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), &sentBot{}, 0)
	for u := range int64(n) {
		arm(t, a, 100+u, "BTC", true, "120000", -100)
	}
	arm(t, a, 7, "BTC", true, "140000", -100) // not crossed
	counting.Reset()
	if err := a.checkThenTick(context.Background()); err != nil {
		t.Fatal(err)
	}
	return counting.Trips()
}

// An alert's fire costs the store fourteen round trips (its user's record
// read, its timer set, then fired, the user's record ended in one swap),
// past what a check and a tick read once.
func TestAnAlertsFireCostsFourteenRoundTrips(t *testing.T) {
	one, eleven := alertTrips(t, 1), alertTrips(t, 11)
	if per := (eleven - one) / 10; per != 14 {
		t.Errorf("an alert's fire: %d round trips (1 alert: %d, 11 alerts: %d), want 14", per, one, eleven)
	}
}
