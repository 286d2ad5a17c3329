package sim_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/sim"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// Seed 2 found a top-up counted twice when its confirmation was lost and
// Telegram delivered the update again (sim.ReplayedTrade); trading.Apply
// now applies a change once per update. The life must pass without it.
func TestARedeliveredTradeIsAppliedOnceSeed2(t *testing.T) {
	sim.Run(t, sim.Config{Seed: 2, Days: 2, PerDay: 200, Store: memory.New(), Known: known})
}
