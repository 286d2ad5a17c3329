package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/miti99bot/miti99bot/internal/migrate"
)

// preflight refuses a copy or mirror while a store server's clock and this
// machine's are more than max apart (0: no check). A bolt file has no clock
// of its own: it is on this machine.
func preflight(ctx context.Context, w io.Writer, max time.Duration, stores map[string]endpoint, order ...string) error {
	if max <= 0 {
		return nil
	}
	var clocks []migrate.ServerClock
	for _, name := range order {
		if c, ok := migrate.ClockOf(name, stores[name]); ok {
			clocks = append(clocks, c)
		}
	}
	skews, err := migrate.CheckClocks(ctx, time.Now, max, clocks)
	for _, s := range skews {
		fmt.Fprintln(w, "migrate:", s)
	}
	return err
}
