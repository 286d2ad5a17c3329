package remind

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/app"
)

// ict is the bot's zone for its users (Vietnam, UTC+7, no daylight time).
var ict = time.FixedZone("ICT", 7*3600)

// Bounds of a reminder.
const (
	maxText  = 1000
	maxAhead = 366 * 24 * time.Hour
	// minAhead: the container fires a timer at its second (Lambda at the
	// next minute's tick), and a reminder sooner than this is a typo.
	minAhead = 10 * time.Second
)

// refusal is a /remind the module refuses: its value is the key of the
// text that tells the user why (refusal.text).
type refusal string

func (r refusal) Error() string { return "remind: refused: " + string(r) }

// The refusals of /remind.
const (
	errNoWhen   refusal = "no_when"
	errBadWhen  refusal = "bad_when"
	errNoText   refusal = "no_text"
	errTooLong  refusal = "too_long"
	errPast     refusal = "past"
	errTooFar   refusal = "too_far"
	errTooEarly refusal = "too_early"
)

// text is the refusal in w's language, with the bound it names.
func (r refusal) text(w app.Words) string {
	switch r {
	case errTooLong:
		return w.T(string(r), app.Args{"Max": strconv.Itoa(maxText)})
	case errTooFar:
		return w.T(string(r), app.Args{"Count": int(maxAhead / (24 * time.Hour))})
	case errTooEarly:
		return w.T(string(r), app.Args{"Count": int(minAhead / time.Second)})
	}
	return w.T(string(r))
}

// parse reads "<when> <text>" as now sees it: a delay (30s, 10m, 2h, 1d,
// 1h30m, or a number and a Vietnamese unit: 10 phút), "at HH:MM" ("lúc"
// as well) (the next such time in Vietnam) or "at YYYY-MM-DD
// HH:MM" (Vietnam time).
func parse(args string, now time.Time) (at time.Time, text string, err error) {
	f := strings.Fields(args)
	if len(f) == 0 {
		return at, "", errNoWhen
	}
	rest := strings.TrimSpace(args)
	cut := func(n int) string { // rest after the first n fields
		for range n {
			rest = strings.TrimSpace(rest[len(strings.Fields(rest)[0]):])
		}
		return rest
	}
	var d time.Duration
	switch unit := vietnameseUnit(f); {
	case isAt(f[0]):
		at, text, err = parseAt(f[1:], now, cut)
	case unit != "":
		if d, err = parseDelay(f[0] + unit); err == nil {
			at, text = now.Add(d), cut(2)
		}
	default:
		if d, err = parseDelay(f[0]); err == nil {
			at, text = now.Add(d), cut(1)
		}
	}
	switch {
	case err != nil:
		return at, "", err
	case text == "":
		return at, "", errNoText
	case utf8.RuneCountInString(text) > maxText:
		return at, "", errTooLong
	case !at.After(now):
		return at, "", errPast
	case at.Sub(now) < minAhead:
		return at, "", errTooEarly
	case at.Sub(now) > maxAhead:
		return at, "", errTooFar
	}
	return at, text, nil
}

// isAt reports whether word says a clock time follows: "at", or the
// Vietnamese "lúc" (with or without its diacritic).
func isAt(word string) bool {
	switch strings.ToLower(word) {
	case "at", "lúc", "luc":
		return true
	}
	return false
}

// vietnameseUnit is parseDelay's unit for the word after a number when
// it is a Vietnamese one ("10 phút", "2 giờ", "1 ngày"), written with or
// without diacritics; "" otherwise.
func vietnameseUnit(f []string) string {
	if len(f) < 2 {
		return ""
	}
	switch strings.ToLower(f[1]) {
	case "giây", "giay":
		return "s"
	case "phút", "phut":
		return "m"
	case "giờ", "gio", "tiếng", "tieng":
		return "h"
	case "ngày", "ngay":
		return "d"
	}
	return ""
}

func parseAt(f []string, now time.Time, cut func(int) string) (time.Time, string, error) {
	if len(f) == 0 {
		return time.Time{}, "", errBadWhen
	}
	if len(f) >= 2 {
		if t, err := time.ParseInLocation("2006-01-02 15:04", f[0]+" "+f[1], ict); err == nil {
			return t, cut(3), nil
		}
	}
	clock, err := time.ParseInLocation("15:04", f[0], ict)
	if err != nil {
		return time.Time{}, "", errBadWhen
	}
	local := now.In(ict)
	t := time.Date(local.Year(), local.Month(), local.Day(), clock.Hour(), clock.Minute(), 0, 0, ict)
	if !t.After(now) {
		t = t.AddDate(0, 0, 1)
	}
	return t, cut(2), nil
}

// parseDelay reads digits-and-unit groups: s seconds, m minutes, h hours,
// d days.
// A group or a sum past maxAhead is refused before it is multiplied or
// added, so no delay wraps around into a near one.
func parseDelay(s string) (time.Duration, error) {
	var total time.Duration
	s = strings.ToLower(s)
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || i > 6 {
			return 0, errBadWhen
		}
		n, _ := strconv.Atoi(s[:i])
		unit := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}[s[i]]
		if unit == 0 {
			return 0, errBadWhen
		}
		if time.Duration(n) > (maxAhead-total)/unit {
			return 0, errTooFar
		}
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	return total, nil
}
