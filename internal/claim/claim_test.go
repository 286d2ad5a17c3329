package claim_test

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/claim"
)

func TestWorkIsFreeUnlessFinishedOrHeldByALiveRunner(t *testing.T) {
	now := time.Date(2027, 1, 4, 12, 0, 0, 0, time.UTC)
	const stale = 2 * time.Minute
	ago := func(d time.Duration) int64 { return now.Add(-d).UnixNano() }
	tests := []struct {
		name  string
		state claim.State
		at    int64
		want  claim.Verdict
	}{
		{"never taken: take it", claim.None, 0, claim.Take},
		{"finished: over", claim.Done, ago(time.Hour), claim.Over},
		{"finished a moment ago: over", claim.Done, ago(0), claim.Over},
		{"failed: take it again", claim.Failed, ago(0), claim.Take},
		{"running, fresh: busy", claim.Running, ago(stale - time.Nanosecond), claim.Busy},
		{"running as long as stale: its runner died, take it", claim.Running, ago(stale), claim.Take},
		{"running with a clock ahead of ours: busy", claim.Running, ago(-time.Minute), claim.Busy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := claim.Judge(tt.state, tt.at, now, stale); got != tt.want {
				t.Fatalf("Judge = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEveryRecordsStateNamesReadAsOneState(t *testing.T) {
	tests := []struct {
		name string
		want claim.State
	}{
		{"running", claim.Running}, {"sending", claim.Running},
		{"done", claim.Done}, {"sent", claim.Done}, {"refused", claim.Done},
		{"failed", claim.Failed},
		{"", claim.None}, {"Running", claim.None}, {"stale", claim.None},
	}
	for _, tt := range tests {
		if got := claim.Parse(tt.name); got != tt.want {
			t.Errorf("Parse(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
