package core

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A run and the recording of its outcome end before its claim turns stale:
// otherwise a redelivery would start alongside a live first run.
func TestARunAndItsRecordEndBeforeItsClaimIsStale(t *testing.T) {
	if UpdateBudget+RecordTime >= dedupStale {
		t.Fatalf("UpdateBudget %v + RecordTime %v >= dedupStale %v", UpdateBudget, RecordTime, dedupStale)
	}
}

// A record reads back as it was written, and a finished one has one form
// (the claim guesses its bytes), whatever the id.
func FuzzADedupRecordReadsBackAsWritten(f *testing.F) {
	states := []dedupState{stateRunning, stateFailed, stateDone} // a record holds only these
	f.Add(int64(1), uint8(0), 1, 1, int64(1_700_000_000_123_456_789))
	f.Add(int64(-5), uint8(1), 4, 6, int64(1))
	f.Add(int64(1<<53+1), uint8(2), 0, 0, int64(0))
	f.Fuzz(func(t *testing.T, id int64, state uint8, attempts, run int, at int64) {
		r := dedupRecord{ID: id, State: states[int(state)%len(states)], Attempts: attempts, At: at, Answered: run%2 == 1}
		var back dedupRecord
		if err := json.Unmarshal(r.encode(), &back); err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("%+v reads back as %+v (%v)", r, back, err)
		}
		if got, want := string(doneRecord(id)), string(dedupRecord{ID: id, State: stateDone}.encode()); got != want {
			t.Fatalf("doneRecord(%d) = %s, want %s", id, got, want)
		}
	})
}
