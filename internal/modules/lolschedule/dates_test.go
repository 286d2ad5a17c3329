package lolschedule

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want string // yyyy-mm-dd, or "" for an error
	}{
		{"25-11-2026", "2026-11-25"},
		{"25/11/2026", "2026-11-25"},
		{"25112026", "2026-11-25"},
		{"01-01-2027", "2027-01-01"},
		{"29-02-2028", "2028-02-29"}, // leap year
		{"29-02-2027", ""},           // not one
		{"31-04-2026", ""},
		{"00-01-2026", ""},
		{"15-13-2026", ""},
		{"25-11/2026", ""}, // mixed separators
		{"2026-11-25", ""}, // ISO order is not accepted
		{"5-11-2026", ""},  // two-digit day
		{"25-11-26", ""},   // four-digit year
		{"", ""},
		{"today", ""},
	}
	for _, tt := range tests {
		got, err := parseDate(tt.in)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("parseDate(%q) = %v, want an error", tt.in, got)
		case tt.want != "" && (err != nil || got.Format("2006-01-02") != tt.want || got.Location() != ict):
			t.Errorf("parseDate(%q) = %v, %v; want %s ICT", tt.in, got, err, tt.want)
		}
	}
}

func TestDaysAndWeeksAreVietnamese(t *testing.T) {
	// 18:00 UTC on Sunday is 01:00 on Monday in Vietnam: a new day and week.
	at := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	day, next := dayOf(at)
	if day.Format("Mon 2006-01-02 15:04") != "Mon 2026-11-30 00:00" || next.Sub(day) != 24*time.Hour {
		t.Fatalf("dayOf = %v .. %v", day, next)
	}
	from, to := weekOf(at)
	if from.Format("Mon 02/01") != "Mon 30/11" || to.Format("Mon 02/01") != "Mon 07/12" {
		t.Fatalf("weekOf = %v .. %v", from, to)
	}
	from, _ = weekOf(time.Date(2026, 11, 29, 16, 59, 0, 0, time.UTC)) // 23:59 Sunday ICT
	if from.Format("Mon 02/01") != "Mon 23/11" {
		t.Fatalf("Sunday belongs to the week that began on Monday 23/11, got %v", from)
	}
}
