package lolschedule

import (
	"errors"
	"fmt"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
)

// errBadDate: not dd-mm-yyyy, dd/mm/yyyy or ddmmyyyy.
var errBadDate = errors.New("lolschedule: not a date in a form read")

// notADate is a well-formed day no calendar has (31-02-2026).
type notADate struct{ d, mo, y int }

func (n notADate) String() string { return fmt.Sprintf("%02d-%02d-%04d", n.d, n.mo, n.y) }
func (n notADate) Error() string  { return "lolschedule: " + n.String() + " is not a date" }

// badDateText tells the user why input is no date, in w's language.
func badDateText(w app.Words, input string, err error) string {
	if n := (notADate{}); errors.As(err, &n) {
		return w.T("not_a_date", app.Args{"Input": app.Quote(input), "Date": n.String()})
	}
	return w.T("bad_date", app.Args{"Input": app.Quote(input)})
}

// parseDate reads dd-mm-yyyy, dd/mm/yyyy or ddmmyyyy as a day in ICT.
func parseDate(s string) (time.Time, error) {
	d, mo, y, ok := dateFields(s)
	if !ok || (len(s) == 10 && s[2] != s[5]) { // 25-12/2026 mixes separators
		return time.Time{}, errBadDate
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, ict)
	if t.Day() != d || int(t.Month()) != mo || t.Year() != y { // 31-02 rolls over
		return time.Time{}, notADate{d, mo, y}
	}
	return t, nil
}

// dateFields splits two digits, an optional - or /, two digits, an
// optional - or /, and four digits. A loop, not a regexp: the counted
// repetitions would compile at package init, on every cold start.
func dateFields(s string) (d, mo, y int, ok bool) {
	i := 0
	number := func(n int) (v int, ok bool) {
		if i+n > len(s) {
			return 0, false
		}
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		i += n
		return v, true
	}
	separator := func() {
		if i < len(s) && (s[i] == '-' || s[i] == '/') {
			i++
		}
	}
	var okD, okM, okY bool
	d, okD = number(2)
	separator()
	mo, okM = number(2)
	separator()
	y, okY = number(4)
	return d, mo, y, okD && okM && okY && i == len(s)
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
