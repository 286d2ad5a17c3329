package lolschedule

import "testing"

// FuzzParseDate: a typed date is a real day or an error.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"25-12-2026", "25/12/2026", "25122026", "31-02-2026", "25-12/2026", "", "99-99-9999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDate(s)
		if err == nil && (d.IsZero() || d.Location() != ict) {
			t.Fatalf("parseDate(%q) = %v", s, d)
		}
	})
}
