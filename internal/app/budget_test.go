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
func TestADoneRecordIsWhatJSONWouldWrite(t *testing.T) {
	for _, id := range []int64{0, 1, 8192, -5, 1<<53 + 1} {
		got := doneRecord(id)
		want, _ := json.Marshal(dedupRecord{ID: id, State: stateDone})
		if string(got) != string(want) {
			t.Errorf("doneRecord(%d) = %s, want %s", id, got, want)
		}
	}
}
