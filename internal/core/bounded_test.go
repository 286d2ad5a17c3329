package core_test

import (
	"testing"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// The records the core keeps per update never grow without bound
// (docs/delivery.md, "Bounded"): updates whose ids share slots reuse them,
// in the ring and in the late ring (an update older than its slot's
// holder), so a long life's store holds as many records as slots used,
// not as updates handled.
func TestPerUpdateRecordsReuseTheirSlots(t *testing.T) {
	const slots = 8192 // dedupSlots
	tests := []struct {
		name   string
		rounds int
		late   bool // each round also handles, per slot, an older id never seen
	}{
		{"the ring", 40, false},
		{"the ring and the late ring", 40, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := apptest.NewWithClient(t, telegramtest.New(t), []telegram.Option{telegram.WithRates(rate.Inf, rate.Inf)}, []app.Factory{misc.Factory})
			core := b.Store.For(storage.CoreNamespace)
			records := func() int {
				keys, err := core.List(t.Context(), "")
				if err != nil {
					t.Fatal(err)
				}
				return len(keys)
			}
			first := 0
			for r := 1; r <= tt.rounds; r++ {
				for s := int64(1); s <= 4; s++ {
					ids := []int64{int64(2*r)*slots + s}
					if tt.late && r > 1 {
						ids = append(ids, int64(2*r-1)*slots+s) // older than slot s's holder
					}
					for _, id := range ids {
						if err := b.Handle(withID(telegramtest.Text(private, user, "/ping"), id)); err != nil {
							t.Fatalf("update %d: %v", id, err)
						}
					}
				}
				switch n := records(); {
				case r == 2:
					first = n // both rings in use from the second round
				case r > 2 && n != first:
					t.Fatalf("round %d: the core's namespace holds %d keys; it held %d after round 2", r, n, first)
				}
			}
			if late, _ := core.List(t.Context(), "update:late:"); len(late) != map[bool]int{true: 4}[tt.late] {
				t.Fatalf("late records %q; want one per slot used late", late)
			}
			if replies := len(b.Srv.Messages()); replies != tt.rounds*4+map[bool]int{true: (tt.rounds - 1) * 4}[tt.late] {
				t.Fatalf("%d replies; want each update answered once", replies)
			}
		})
	}
}
