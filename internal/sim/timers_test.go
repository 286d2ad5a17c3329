package sim_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/sim"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// TestALifeSendsAndCancelsRemindersAndAlerts: the timers checkers have
// something to check: short lives' users set reminders and coin alerts,
// some come, some are cancelled. Three lives between them, so that a new
// kind of step that moves one life's draws still leaves the checkers fed.
func TestALifeSendsAndCancelsRemindersAndAlerts(t *testing.T) {
	t.Parallel()
	counts := map[string]int{}
	var summaries []string
	for seed := uint64(1); seed <= 3; seed++ {
		res := sim.Run(t, sim.Config{Seed: seed, Days: 2, PerDay: 120, Store: memory.New(), Known: known})
		summaries = append(summaries, res.Summary)
		for _, kv := range strings.Fields(res.Summary) {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.Atoi(v)
			counts[k] += n
		}
	}
	for _, what := range []string{"reminders-set", "reminders-sent", "reminders-cancelled", "alerts-set", "alerts-sent", "alerts-cancelled",
		"language-chosen", "language-pressed"} {
		if counts[what] == 0 {
			t.Errorf("no %s in the lives of seeds 1 to 3:\n%s", what, strings.Join(summaries, "\n"))
		}
	}
}
