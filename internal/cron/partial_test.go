package cron

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// A run that did part of its work (app.ErrPartial) says so: its outcome is
// partial, not ran, its status names what was left, and its slot is not
// run again (the job's next slot does the rest).
func TestARunThatDidNotFinishIsPartialNotDone(t *testing.T) {
	clk := &clock{t: slot.Add(10 * time.Second)}
	runs := 0
	d := newDispatcher(t, memory.New(), clk, jobModule("* * * * *", func(context.Context) error {
		runs++
		return fmt.Errorf("%w: no price in time for AA1", app.ErrPartial)
	}))
	out, err := d.Dispatch(t.Context(), "job", slot)
	if out != Partial || err != nil {
		t.Fatalf("Dispatch = %q, %v; want partial, no error (nothing to retry)", out, err)
	}
	if out, _ := d.Dispatch(t.Context(), "job", slot); out != Skipped || runs != 1 {
		t.Fatalf("the slot again: %q after %d runs; want skipped after one", out, runs)
	}
	st, err := d.Statuses(t.Context())
	if err != nil || len(st) != 1 || st[0].LastFailure == nil || !strings.Contains(st[0].LastFailure.Error, "AA1") || st[0].LastSuccess != nil {
		t.Fatalf("status %+v, %v; want the partial run as its last failure, naming what was left", st, err)
	}
}
