package app

import (
	"encoding/json"
	"testing"
)

// A run and the recording of its outcome end before its claim turns stale:
// otherwise a redelivery would start alongside a live first run.
func TestARunAndItsRecordEndBeforeItsClaimIsStale(t *testing.T) {
	if UpdateBudget+RecordTime >= dedupStale {
		t.Fatalf("UpdateBudget %v + RecordTime %v >= dedupStale %v", UpdateBudget, RecordTime, dedupStale)
	}
}

// The claim guesses a finished record's bytes: its hand-written form must
// be exactly what json.Marshal writes.
func TestARecordIsWhatJSONWouldWrite(t *testing.T) {
	recs := []dedupRecord{
		{ID: 1, State: stateRunning, Attempts: 1, Run: 1, At: 1_700_000_000_123_456_789},
		{ID: -5, State: stateFailed, Attempts: 4, Run: 6, At: 1},
		{ID: 1<<53 + 1, State: stateFailed, Run: 2, At: -1},
	}
	for _, id := range []int64{0, 1, 8192, -5, 1<<53 + 1} {
		recs = append(recs, dedupRecord{ID: id, State: stateDone})
	}
	for _, r := range recs {
		want, _ := json.Marshal(r)
		if got := r.encode(); string(got) != string(want) {
			t.Errorf("%+v encodes as %s, want %s", r, got, want)
		}
		if r.State == stateDone {
			if got := doneRecord(r.ID); string(got) != string(want) {
				t.Errorf("doneRecord(%d) = %s, want %s", r.ID, got, want)
			}
		}
	}
}
