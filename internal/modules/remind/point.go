package remind

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A clock time as one field: 19:30, 19h30, 19h, 8g30, 7pm, 7:30pm.
// Compiled at first use: a cold start compiles no regexp.
var clockField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{1,2})(?:([:hg])(\d{2})?)?(am|pm)?$`)
})

// A date: 2027-01-31, 31/01/2027, 31/01 (the next such day).
var (
	isoDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`) })
	dmyDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,2})/(\d{1,2})(?:/(\d{4}))?$`) })
)

// point is a clock time as read: its day (said or not), its clock and the
// part of the day that sets its hour.
type point struct {
	day         time.Time // midnight in Vietnam; zero: none said
	hour, min   int
	clock, part bool
	said        bool   // a word says a clock time follows or was meant: at, lúc, a day, a part of the day
	partOf      string // am, pm, sáng, trưa, chiều, tối, đêm
	colon       bool   // written 19:30: a clock with no word around it
}

// readPoint reads the clock time f begins with, and how many fields it
// takes (0: f begins with none, maybe a delay). Its fields come in any
// order, each once: "at"/"lúc"/"on", a day (today, tomorrow, hôm nay,
// ngày mai, mai, ngày kia, mốt, tonight, tối nay, a date), a part of the
// day (sáng, trưa, chiều, tối, đêm, am, pm) and the clock (19:30, 19h30,
// 7pm, 8 giờ 30, 8 giờ rưỡi; a number alone after at or lúc). A number
// and a unit alone ("2h", "2 giờ") is a delay, as it always was.
func readPoint(f []string, now time.Time, zone *time.Location) (time.Time, int, error) {
	local := now.In(zone)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, zone)
	var p point
	i := 0
	for i < len(f) {
		n := p.field(f[i:], today)
		if n == 0 {
			break
		}
		i += n
	}
	switch {
	case !p.clock && (p.said || !p.day.IsZero()):
		return time.Time{}, 0, errBadWhen
	case !p.clock, !p.said && p.day.IsZero() && !p.colon:
		return time.Time{}, 0, nil
	}
	h, ok := p.hourOfDay()
	if !ok || p.min > 59 {
		return time.Time{}, 0, errBadWhen
	}
	if p.day.IsZero() {
		t := today.Add(time.Duration(h)*time.Hour + time.Duration(p.min)*time.Minute)
		if !t.After(now) {
			t = t.AddDate(0, 0, 1)
		}
		return t, i, nil
	}
	return p.day.Add(time.Duration(h)*time.Hour + time.Duration(p.min)*time.Minute), i, nil
}

// field reads one field of a clock time at f's start into p; 0 when f
// starts with none, or with a kind p already has (the text begins there).
func (p *point) field(f []string, today time.Time) int {
	next := func(k int) string {
		if k < len(f) {
			return f[k]
		}
		return ""
	}
	w := strings.ToLower(f[0])
	switch {
	case word(w, "at", "lúc", "on"):
		p.said = true
		return 1
	case p.day.IsZero() && (word(w, "today", "nay") || word(w, "hôm") && word(next(1), "nay")):
		return p.setDay(today, w == "hôm" || w == "hom")
	case p.day.IsZero() && word(w, "tonight"):
		p.partOf = "tối"
		return p.setDay(today, false)
	case p.day.IsZero() && (word(w, "tomorrow", "mai") || word(w, "ngày") && word(next(1), "mai")):
		return p.setDay(today.AddDate(0, 0, 1), word(w, "ngày"))
	case p.day.IsZero() && (word(w, "mốt") || word(w, "ngày") && word(next(1), "kia")):
		return p.setDay(today.AddDate(0, 0, 2), word(w, "ngày"))
	case p.day.IsZero() && word(w, "ngày") && date(next(1), today) != (time.Time{}):
		return p.setDay(date(next(1), today), true)
	case p.day.IsZero() && date(w, today) != (time.Time{}):
		return p.setDay(date(w, today), false)
	case p.partOf == "" && partOfDay(f[0]):
		p.partOf, p.said = strings.ToLower(f[0]), true
		return 1
	case !p.clock:
		return p.readClock(f)
	}
	return 0
}

func (p *point) setDay(day time.Time, twoFields bool) int {
	p.day = day
	if twoFields {
		return 2
	}
	return 1
}

// readClock reads the clock at f's start: one field (19:30, 19h30, 7pm),
// or a number and what follows it (8 giờ 30, 8 giờ rưỡi, 7 pm, 8 after
// at or lúc).
func (p *point) readClock(f []string) int {
	next := func(k int) string {
		if k < len(f) {
			return f[k]
		}
		return ""
	}
	m := clockField().FindStringSubmatch(strings.ToLower(f[0]))
	if m == nil {
		return 0
	}
	p.hour, _ = strconv.Atoi(m[1])
	p.min, _ = strconv.Atoi(m[3])
	n := 1
	switch {
	case m[4] != "":
		p.partOf, p.said = m[4], true
	case m[2] == ":" && m[3] != "":
		p.colon = true
	case m[2] != "" && m[3] == "" && word(next(1), "rưỡi"): // 8h rưỡi
		p.min, n = 30, 2
	case m[2] != "":
	case word(next(1), "am", "pm"):
		p.partOf, p.said, n = strings.ToLower(next(1)), true, 2
	case word(next(1), "giờ"):
		n = 2
		switch {
		case word(next(2), "rưỡi"):
			p.min, n = 30, 3
		case isNumber(next(2)) && len(next(2)) <= 2:
			p.min, _ = strconv.Atoi(next(2))
			n = 3
			if word(next(3), "phút") {
				n = 4
			}
		}
	case !p.said:
		return 0 // a number alone is a clock only after at or lúc
	}
	if m[2] == ":" && m[3] == "" {
		return 0
	}
	p.clock = true
	return n
}

// partOfDay reports whether w names a part of the day. Only as written
// with its diacritics: "toi" typed bare is as likely "tôi" (I) as "tối".
func partOfDay(w string) bool {
	switch strings.ToLower(w) {
	case "sáng", "trưa", "chiều", "tối", "đêm", "am", "pm":
		return true
	}
	return false
}

// hourOfDay is the clock's hour in the day, as its part of the day sets it
// (7 pm, 7 giờ tối: 19; 12 am, 12 giờ đêm: 0 of the next day, as 24).
func (p *point) hourOfDay() (int, bool) {
	h := p.hour
	if h > 23 {
		return 0, false
	}
	if h > 12 || p.partOf == "" {
		return h, p.partOf != "am" || h <= 12
	}
	switch p.partOf {
	case "am":
		if h == 12 {
			return 0, true
		}
	case "pm", "chiều":
		if h < 12 {
			return h + 12, true
		}
	case "trưa":
		if h < 5 {
			return h + 12, true
		}
	case "tối", "đêm":
		switch {
		case h == 12:
			return 24, true
		case h >= 6 || p.partOf == "tối":
			return h + 12, true
		}
	}
	return h, true
}

// date is the day s writes (2027-01-31, 31/01/2027, or 31/01: the next
// such day from today), midnight on today's clock; zero for none.
func date(s string, today time.Time) time.Time {
	if m := isoDate().FindStringSubmatch(s); m != nil {
		return dateOf(m[1], m[2], m[3], today.Location())
	}
	m := dmyDate().FindStringSubmatch(s)
	if m == nil {
		return time.Time{}
	}
	if m[3] != "" {
		return dateOf(m[3], m[2], m[1], today.Location())
	}
	d := dateOf(strconv.Itoa(today.Year()), m[2], m[1], today.Location())
	if !d.IsZero() && d.Before(today) {
		d = dateOf(strconv.Itoa(today.Year()+1), m[2], m[1], today.Location())
	}
	return d
}

// dateOf is the date of year, month and day as written, zero for no such day
// (31/02).
func dateOf(y, m, d string, loc *time.Location) time.Time {
	t, err := time.ParseInLocation("2006-1-2", y+"-"+m+"-"+d, loc)
	if err != nil {
		return time.Time{}
	}
	return t
}
