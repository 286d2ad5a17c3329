package remind

import (
	"strconv"
	"strings"
	"time"
)

// unitWords are the words a reader writes after a number for a delay's
// unit, as parseDelay's letter.
var unitWords = []struct {
	unit  string
	words []string
}{
	{"s", []string{"giây", "s", "sec", "secs", "second", "seconds"}},
	{"m", []string{"phút", "p", "m", "min", "mins", "minute", "minutes"}},
	{"h", []string{"giờ", "tiếng", "h", "hr", "hrs", "hour", "hours"}},
	{"d", []string{"ngày", "d", "day", "days"}},
}

// unitOf is the unit letter word names ("" for none).
func unitOf(w string) string {
	for _, u := range unitWords {
		if word(w, u.words...) {
			return u.unit
		}
	}
	return ""
}

// readDelay reads the delay f begins with, and how many of its fields it
// takes: "in"/"sau" first, then one compact part ("10m", "1h30m") or
// parts in words, each a smaller unit than the one before ("1 hour 30
// minutes", "an hour", "half an hour", "2 tiếng rưỡi", "nửa tiếng"), then
// "nữa" ("10 phút nữa"). A part or a sum past maxAhead is too far.
func readDelay(f []string) (time.Duration, int, error) {
	i := 0
	if len(f) > 1 && word(f[0], "in", "sau") {
		i++
	}
	var total time.Duration
	parts, last := 0, time.Duration(0) // last: the unit of the last part in words
	for i < len(f) {
		d, unit, n, err := delayPart(f[i:], parts == 0)
		if err != nil {
			return 0, 0, err
		}
		if n == 0 || parts > 0 && unit >= last {
			break
		}
		if d > maxAhead-total {
			return 0, 0, errTooFar
		}
		total, i, parts, last = total+d, i+n, parts+1, unit
		if unit == 0 { // a compact part is the whole delay
			break
		}
	}
	if parts == 0 {
		return 0, 0, errBadWhen
	}
	if i < len(f) && word(f[i], "nữa") {
		i++
	}
	return total, i, nil
}

// delayPart reads one part of a delay at f's start, in words (unit is its
// unit) or compact (unit 0); n is 0 when f starts with none. first allows
// the parts that only begin a delay ("an hour", "nửa tiếng").
func delayPart(f []string, first bool) (d, unit time.Duration, n int, err error) {
	next := func(k int) string {
		if k < len(f) {
			return f[k]
		}
		return ""
	}
	one := func(u string) (time.Duration, time.Duration) {
		d, _ := parseDelay("1" + u)
		return d, d
	}
	switch {
	case first && word(f[0], "nửa") && unitOf(next(1)) != "":
		d, unit = one(unitOf(next(1)))
		return d / 2, unit, 2, nil
	case first && word(f[0], "half") && word(next(1), "an", "a") && unitOf(next(2)) != "":
		d, unit = one(unitOf(next(2)))
		return d / 2, unit, 3, nil
	case first && word(f[0], "a", "an", "one") && unitOf(next(1)) != "":
		d, unit = one(unitOf(next(1)))
		return d, unit, 2, nil
	case isNumber(f[0]) && unitOf(next(1)) != "":
		u := unitOf(next(1))
		if d, err = parseDelay(f[0] + u); err != nil {
			return 0, 0, 0, err
		}
		_, unit = one(u)
		if u == "h" && word(next(2), "rưỡi") { // "2 tiếng rưỡi": two and a half hours
			return d + 30*time.Minute, unit, 3, nil
		}
		return d, unit, 2, nil
	case isNumber(f[0]) || !first:
		return 0, 0, 0, nil
	}
	switch d, err = parseDelay(f[0]); err {
	case nil:
		return d, 0, 1, nil
	case errTooFar:
		return 0, 0, 0, err
	}
	return 0, 0, 0, nil // not a delay: the text begins here
}

// isNumber reports whether s is digits only.
func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && !strings.ContainsAny(s, "+-")
}

// parseDelay reads digits-and-unit groups: s seconds, m (or the
// Vietnamese p, phút) minutes, h hours, d days.
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
		unit := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'p': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}[s[i]]
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
