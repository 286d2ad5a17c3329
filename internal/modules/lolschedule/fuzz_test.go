package lolschedule

import (
	"regexp"
	"testing"
)

// dateShape is the date's shape as a regexp: the fuzz target holds
// dateFields' loop to it.
var dateShape = regexp.MustCompile(`^\d{2}[-/]?\d{2}[-/]?\d{4}$`)

// FuzzParseDate: a typed date is a real day or an error, and its shape is
// read exactly as the regexp reads it.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"25-12-2026", "25/12/2026", "25122026", "31-02-2026", "25-12/2026", "", "99-99-9999", "25-122026", "2512-2026", "25--122026", "2512202"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDate(s)
		if err == nil && (d.IsZero() || d.Location() != ict) {
			t.Fatalf("parseDate(%q) = %v", s, d)
		}
		if _, _, _, ok := dateFields(s); ok != dateShape.MatchString(s) {
			t.Fatalf("dateFields(%q) ok = %v, the regexp says %v", s, ok, !ok)
		}
	})
}
