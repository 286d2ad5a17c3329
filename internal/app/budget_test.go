package app

import "testing"

// A run and the recording of its outcome end before its claim turns stale:
// otherwise a redelivery would start alongside a live first run.
func TestARunAndItsRecordEndBeforeItsClaimIsStale(t *testing.T) {
	if UpdateBudget+RecordTime >= dedupStale {
		t.Fatalf("UpdateBudget %v + RecordTime %v >= dedupStale %v", UpdateBudget, RecordTime, dedupStale)
	}
}
