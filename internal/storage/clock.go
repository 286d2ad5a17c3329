package storage

import (
	"context"
	"time"
)

// ServerClock is a provider that talks to a server with a clock of its
// own, which the migrator's pre-flight compares with its machine's
// (docs/cutover.md): newer-wins and the checkpoint trust those clocks to
// agree. An embedded store has none: it is on the machine that runs it.
type ServerClock interface {
	// ServerTime reads the server's clock: it was somewhere in
	// [at, at+resolution) during the call.
	ServerTime(ctx context.Context) (at time.Time, resolution time.Duration, err error)
}
