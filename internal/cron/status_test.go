package cron

import (
	"context"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// Every enabled job is listed, with its next fire from now, whether or not
// it ever ran: a fresh deploy shows its daily push, not "nothing".
func TestStatusesListEveryEnabledJobWithItsNextFire(t *testing.T) {
	ok := func(context.Context) error { return nil }
	tests := []struct {
		name        string
		ran         bool // the job ran once at slot before the read
		readAt      time.Time
		wantNext    time.Time
		wantSuccess bool
	}{
		{"a job that never ran is listed with no run", false, slot.Add(-time.Hour), slot, false},
		{"a job that ran keeps its record", true, slot.Add(time.Minute), slot.Add(24 * time.Hour), true},
		{"a job whose record is days old fires next from now", true, slot.Add(72*time.Hour + time.Minute), slot.Add(96 * time.Hour), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := memory.New()
			clk := &clock{t: slot}
			d := newDispatcher(t, store, clk, jobModule("0 1 * * *", ok))
			if tt.ran {
				if _, err := d.Dispatch(t.Context(), "job", slot); err != nil {
					t.Fatal(err)
				}
			}
			clk.add(tt.readAt.Sub(slot))
			st, err := d.Statuses(t.Context())
			if err != nil || len(st) != 1 {
				t.Fatalf("Statuses = %+v, %v; want the one enabled job", st, err)
			}
			if s := st[0]; s.Job != "job" || !s.NextFire.Equal(tt.wantNext) || (s.LastSuccess != nil) != tt.wantSuccess {
				t.Fatalf("status %+v (success %+v); want next fire %s, a success %v", s, s.LastSuccess, tt.wantNext, tt.wantSuccess)
			}
		})
	}
}

// A record of a job no module enables any more stays listed: it is what
// ran against this store.
func TestStatusesKeepTheRecordOfAJobNoLongerEnabled(t *testing.T) {
	store := memory.New()
	old := JobStatus{Job: "retired", Attempts: 1, LastSuccess: &RunInfo{Slot: slot, At: slot}}
	if err := store.For(storage.CoreNamespace).PutJSON(t.Context(), statusPrefix+old.Job, old); err != nil {
		t.Fatal(err)
	}
	d := newDispatcher(t, store, &clock{t: slot}, jobModule("0 1 * * *", func(context.Context) error { return nil }))
	st, err := d.Statuses(t.Context())
	if err != nil || len(st) != 2 || st[0].Job != "job" || st[1].Job != "retired" || st[1].LastSuccess == nil {
		t.Fatalf("Statuses = %+v, %v; want the enabled job and the retired one's record", st, err)
	}
}
