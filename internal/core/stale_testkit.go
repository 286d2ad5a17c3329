//go:build testkit

package core

import (
	"fmt"
	"time"
)

// Binaries built for the runtime tests (-tags testkit) take over a crashed
// run's claim after 30 s instead of 2 min, so a SIGKILL test does not wait
// minutes for it. Their update budget shrinks with it: a live run, its
// record tries included, must end before its claim turns stale, or a
// redelivery would run it a second time (seen under load with a 10 s stale
// and the 45 s budget).
func init() {
	dedupStale, defaultBudget = 30*time.Second, 10*time.Second
	if defaultBudget+RecordTime >= dedupStale {
		panic(fmt.Sprintf("testkit: budget %v + record %v must stay below the stale mark %v", defaultBudget, RecordTime, dedupStale))
	}
}
