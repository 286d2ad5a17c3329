package locale

import (
	"testing"
	"time"
)

func TestAZoneIsReadAsUsersTypeIt(t *testing.T) {
	at := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, in, want string
		offset         int // seconds east of UTC at `at`; only when ok
		ok             bool
	}{
		{"an IANA name", "Asia/Tokyo", "Asia/Tokyo", 9 * 3600, true},
		{"an IANA name in any case", "europe/berlin", "Europe/Berlin", 2 * 3600, true},
		{"a name with underscores", "asia/ho_chi_minh", "Asia/Ho_Chi_Minh", 7 * 3600, true},
		{"UTC", "utc", "UTC", 0, true},
		{"an offset in hours", "UTC+7", "UTC+07:00", 7 * 3600, true},
		{"GMT and a negative offset", "GMT-5", "UTC-05:00", -5 * 3600, true},
		{"an offset with minutes", "+05:30", "UTC+05:30", 5*3600 + 1800, true},
		{"four digits", "+0545", "UTC+05:45", 5*3600 + 2700, true},
		{"past the largest offset", "UTC+15", "", 0, false},
		{"minutes past 59", "+05:60", "", 0, false},
		{"the process's own zone", "Local", "", 0, false},
		{"nothing", " ", "", 0, false},
		{"a made-up place", "Mars/Olympus", "", 0, false},
		{"a word", "hanoi", "", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ParseZone(c.in)
			if got != c.want || ok != c.ok {
				t.Fatalf("ParseZone(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
			}
			if !ok {
				return
			}
			if _, off := at.In(LoadZone(got)).Zone(); off != c.offset {
				t.Errorf("LoadZone(%q) is %d s east of UTC, want %d", got, off, c.offset)
			}
		})
	}
}

func TestAChatWithoutAZoneReadsVietnamTime(t *testing.T) {
	for _, name := range []string{"", VietnamZone, "Nowhere/Gone"} {
		if LoadZone(name) != Vietnam {
			t.Errorf("LoadZone(%q) is not Vietnam", name)
		}
	}
}
