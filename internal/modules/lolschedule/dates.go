package lolschedule

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

var dateRE = regexp.MustCompile(`^(\d{2})[-/]?(\d{2})[-/]?(\d{4})$`)

// errBadDate explains the accepted formats.
var errBadDate = errors.New("use a date like 25-12-2026, 25/12/2026 or 25122026")

// parseDate reads dd-mm-yyyy, dd/mm/yyyy or ddmmyyyy as a day in ICT.
func parseDate(s string) (time.Time, error) {
	m := dateRE.FindStringSubmatch(s)
	if m == nil || (len(s) == 10 && s[2] != s[5]) { // 25-12/2026 mixes separators
		return time.Time{}, errBadDate
	}
	d, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, ict)
	if t.Day() != d || int(t.Month()) != mo || t.Year() != y { // 31-02 rolls over
		return time.Time{}, fmt.Errorf("%02d-%02d-%04d is not a date", d, mo, y)
	}
	return t, nil
}

// dayOf is the ICT day containing t: [midnight, next midnight).
func dayOf(t time.Time) (time.Time, time.Time) {
	l := t.In(ict)
	start := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, ict)
	return start, start.AddDate(0, 0, 1)
}

// weekOf is Monday 00:00 to the next Monday 00:00 (ICT) around t.
func weekOf(t time.Time) (time.Time, time.Time) {
	day, _ := dayOf(t)
	offset := (int(day.Weekday()) + 6) % 7 // days since Monday
	start := day.AddDate(0, 0, -offset)
	return start, start.AddDate(0, 0, 7)
}
