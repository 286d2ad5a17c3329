//go:build testkit

package app

import "time"

// Binaries built for the runtime tests (-tags testkit) take over a crashed
// run's claim after 10 s instead of 2 min, so a SIGKILL test does not wait
// minutes for it; their updates (tk_echo) take milliseconds.
func init() { dedupStale = 10 * time.Second }
