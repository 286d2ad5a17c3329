package sim_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/sim"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// TestALifeSendsAndCancelsRemindersAndAlerts: the timers checkers have
// something to check: a short life's users set reminders and coin alerts,
// some come, some are cancelled.
func TestALifeSendsAndCancelsRemindersAndAlerts(t *testing.T) {
	t.Parallel()
	res := sim.Run(t, sim.Config{Seed: 1, Days: 2, PerDay: 120, Store: memory.New(), Known: known})
	counts := map[string]int{}
	for _, kv := range strings.Fields(res.Summary) {
		k, v, _ := strings.Cut(kv, "=")
		counts[k], _ = strconv.Atoi(v)
	}
	for _, what := range []string{"reminders-set", "reminders-sent", "reminders-cancelled", "alerts-set", "alerts-sent", "alerts-cancelled"} {
		if counts[what] == 0 {
			t.Errorf("no %s in the life: %s", what, res.Summary)
		}
	}
}
