package timer_test

import (
	"context"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// A store that refuses a write of a fired timer's end now and then (a busy
// server under the tick's workers: FerretDB's SQLite) costs a retry of
// that write, never a second run of the callback.
func TestAnEndWriteTheStoreRefusedOnceIsTriedAgainNotTheCallback(t *testing.T) {
	for _, land := range []bool{false, true} {
		u := storagetest.NewUnheard(memory.New())
		clk := apptest.NewClock(t0)
		var c calls
		e := engine(u.For(storage.CoreNamespace), clk, c.on)
		setKept(t, e.For("m"), "k", t0, time.Hour)
		u.Arm(storage.CoreNamespace, "timer:by:", land) // the end's move of the key's index
		clk.Add(time.Minute)
		_, _ = e.Tick(context.Background())
		clk.Add(app.TimerStale + time.Minute)
		tick(t, e)
		if n := len(c.list()); n != 1 || u.Fired() != 1 {
			t.Fatalf("landed %t: the callback ran %d times (the refused write: %d), want once", land, n, u.Fired())
		}
	}
}
