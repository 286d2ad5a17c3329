package timer_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// Finding what is due costs the tick lease (its read, take and release),
// a read of the cursor and a List per hour from it, whatever waits in
// later hours; each due timer then costs six (read, its key's index read
// to see it is still the key's, take, the two indexes, the record's
// conditional delete).
func TestATickCostsAFewTripsToFindWhatIsDueAndSixPerTimer(t *testing.T) {
	clk := apptest.NewClock(t0)
	counting := storagetest.NewCounting(memory.New(), 0)
	var c calls
	e := engine(counting.For(storage.CoreNamespace), clk, c.on)
	for i := range 9000 { // later the same day
		set(t, e, fmt.Sprintf("later:%d", i), t0.Add(2*time.Hour+time.Duration(i)*8*time.Second))
	}
	for i := range 1000 { // all in the minute after t0
		set(t, e, fmt.Sprintf("now:%d", i), t0.Add(time.Duration(i%60)*time.Second))
	}
	first := tick(t, e) // at t0: the first tick of a store finds its cursor
	counting.Reset()
	clk.Add(time.Minute)
	st := tick(t, e)
	want := int64(3 + 1 + 2 + 6*st.Fired) // lease, cursor, two hours listed, per timer
	if first.Fired+st.Fired != 1000 || counting.Trips() != want {
		// Those due at t0 itself fired at the first tick.
		t.Fatalf("fired %d+%d with %d trips, want 1000 with %d", first.Fired, st.Fired, counting.Trips(), want)
	}
	counting.Reset()
	clk.Add(time.Minute)
	if tick(t, e); counting.Trips() != 6 {
		t.Errorf("a tick with nothing due took %d trips, want 6: %v", counting.Trips(), counting.Calls())
	}
}

// A timer with a Keep costs one trip more to fire (its kept copy; the
// module index is swapped, not deleted), and three when a tick forgets it
// (its read, the index, the record); a Set costs four either way (the
// key's index, the chat's, the record, the key's index read again).
func TestAKeptTimerCostsOneTripMoreToFireAndThreeToForget(t *testing.T) {
	clk := apptest.NewClock(t0)
	counting := storagetest.NewCounting(memory.New(), 0)
	var c calls
	e := engine(counting.For(storage.CoreNamespace), clk, c.on)
	tick(t, e)
	counting.Reset()
	setKept(t, e.For("m"), "k", t0.Add(30*time.Second), time.Hour)
	if got := counting.Trips(); got != 4 {
		t.Errorf("a Set took %d trips, want 4: %v", got, counting.Calls())
	}
	clk.Add(time.Minute)
	counting.Reset()
	if st := tick(t, e); st.Fired != 1 || counting.Trips() != 6+7 {
		t.Errorf("fired %d with %d trips, want 1 with 6 to find it and 7 to fire it: %v", st.Fired, counting.Trips(), counting.Calls())
	}
	clk.Add(time.Hour)
	counting.Reset()
	if st := tick(t, e); st.Forgot != 1 || st.Fired != 0 {
		t.Errorf("the tick at the Keep's end: %+v, want one forgotten, none fired", st)
	}
	forget := 0
	for _, c := range counting.Calls() {
		if strings.Contains(c, ":m:") {
			forget++
		}
	}
	if forget != 3 {
		t.Errorf("forgetting took %d trips, want 3: %v", forget, counting.Calls())
	}
}
