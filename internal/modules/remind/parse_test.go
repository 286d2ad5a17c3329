package remind

import (
	"strings"
	"testing"
	"time"
)

func TestParseReadsEachFormAndRefusesWhatItCannotKeep(t *testing.T) {
	now := time.Date(2027, 1, 30, 3, 0, 0, 0, time.UTC) // 10:00 in Vietnam
	cases := []struct {
		name, args string
		at         time.Time
		text       string
		err        error
	}{
		{"minutes are a delay", "10m stretch", now.Add(10 * time.Minute), "stretch", nil},
		{"hours are a delay", "2h call mum", now.Add(2 * time.Hour), "call mum", nil},
		{"days are a delay", "1d water plants", now.Add(24 * time.Hour), "water plants", nil},
		{"units combine", "1h30m tea", now.Add(90 * time.Minute), "tea", nil},
		{"units read in any case", "2H tea", now.Add(2 * time.Hour), "tea", nil},
		{"at a clock time later today is today in Vietnam", "at 11:30 lunch", time.Date(2027, 1, 30, 11, 30, 0, 0, ict), "lunch", nil},
		{"at a clock time passed today is tomorrow", "at 08:00 stand-up", time.Date(2027, 1, 31, 8, 0, 0, 0, ict), "stand-up", nil},
		{"at a date and time is Vietnam time", "at 2027-01-31 09:00 pay rent", time.Date(2027, 1, 31, 9, 0, 0, 0, ict), "pay rent", nil},
		{"the text keeps its inner spacing and lines", "5m a  b\nc", now.Add(5 * time.Minute), "a  b\nc", nil},
		{"Vietnamese minutes are a delay", "10 phút giãn cơ", now.Add(10 * time.Minute), "giãn cơ", nil},
		{"Vietnamese hours are a delay", "2 giờ gọi mẹ", now.Add(2 * time.Hour), "gọi mẹ", nil},
		{"tiếng is an hour too", "1 tiếng nấu cơm", now.Add(time.Hour), "nấu cơm", nil},
		{"Vietnamese days are a delay", "1 ngày tưới cây", now.Add(24 * time.Hour), "tưới cây", nil},
		{"Vietnamese seconds are a delay", "30 giây trà", now.Add(30 * time.Second), "trà", nil},
		{"Vietnamese units read without diacritics and in any case", "10 PHUT tra", now.Add(10 * time.Minute), "tra", nil},
		{"a Vietnamese delay keeps the bounds", "367 ngày hi", time.Time{}, "", errTooFar},
		{"a Vietnamese unit with no text is refused", "10 phút", time.Time{}, "", errNoText},
		{"a number with no unit is unreadable", "10 hi", time.Time{}, "", errBadWhen},
		{"lúc is at", "lúc 11:30 ăn trưa", time.Date(2027, 1, 30, 11, 30, 0, 0, ict), "ăn trưa", nil},
		{"lúc takes a date too, and reads without diacritics", "Luc 2027-01-31 09:00 trả tiền nhà", time.Date(2027, 1, 31, 9, 0, 0, 0, ict), "trả tiền nhà", nil},
		{"nothing at all asks for when and what", "", time.Time{}, "", errNoWhen},
		{"no text is refused", "10m", time.Time{}, "", errNoText},
		{"no text after a date is refused", "at 2027-01-31 09:00", time.Time{}, "", errNoText},
		{"an unknown unit is unreadable", "10w hi", time.Time{}, "", errBadWhen},
		{"seconds are a delay", "30s stretch", now.Add(30 * time.Second), "stretch", nil},
		{"ten seconds is the shortest delay", "10s tea", now.Add(10 * time.Second), "tea", nil},
		{"under ten seconds is too early", "9s hi", time.Time{}, "", errTooEarly},
		{"seconds combine with minutes", "1m30s tea", now.Add(90 * time.Second), "tea", nil},
		{"a word for a time is unreadable", "tomorrow hi", time.Time{}, "", errBadWhen},
		{"at with no time is unreadable", "at", time.Time{}, "", errBadWhen},
		{"an impossible clock time is unreadable", "at 25:00 hi", time.Time{}, "", errBadWhen},
		{"a date in the past is refused", "at 2026-01-31 09:00 hi", time.Time{}, "", errPast},
		{"a zero delay is in the past", "0m hi", time.Time{}, "", errPast},
		{"over a year away is refused", "367d hi", time.Time{}, "", errTooFar},
		{"a date over a year away is refused", "at 2028-03-01 09:00 hi", time.Time{}, "", errTooFar},
		{"the longest delay is kept", "366d hi", now.Add(366 * 24 * time.Hour), "hi", nil},
		{"days past what a duration holds are too far, not wrapped around", "213504d hi", time.Time{}, "", errTooFar},
		{"the most days six digits write are too far", "999999d hi", time.Time{}, "", errTooFar},
		{"hours past the bound are too far", "8785h hi", time.Time{}, "", errTooFar},
		{"minutes past the bound are too far", "527041m hi", time.Time{}, "", errTooFar},
		{"a sum past what a duration holds is too far", "999999h999999h999999h hi", time.Time{}, "", errTooFar},
		{"a sum of kept parts past the bound is too far", "200d200d hi", time.Time{}, "", errTooFar},
		{"the last date there is is too far", "at 9999-12-31 23:59 hi", time.Time{}, "", errTooFar},
		{"over 1000 characters is refused", "1h " + strings.Repeat("é", 1001), time.Time{}, "", errTooLong},
		{"exactly 1000 characters is kept", "1h " + strings.Repeat("é", 1000), now.Add(time.Hour), strings.Repeat("é", 1000), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at, text, err := parse(c.args, now)
			if err != c.err {
				t.Fatalf("parse(%q) error = %v, want %v", c.args, err, c.err)
			}
			if c.err == nil && (!at.Equal(c.at) || text != c.text) {
				t.Errorf("parse(%q) = %v %q, want %v %q", c.args, at, text, c.at, c.text)
			}
		})
	}
}
