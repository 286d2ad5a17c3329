package remind

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
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
func readDelay(lang app.Lang, f []string) (time.Duration, int, error) {
	i := 0
	if len(f) > 1 && word(f[0], "in", "sau") {
		i++
	}
	var total time.Duration
	parts, last := 0, time.Duration(0) // last: the unit of the last part in words
	for i < len(f) {
		d, unit, n, err := delayPart(lang, f[i:], parts == 0)
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
// the parts that only begin a delay ("an hour", "nửa tiếng", "1.5h").
// A number with decimals reads as lang writes it ("1,5 tiếng").
func delayPart(lang app.Lang, f []string, first bool) (d, unit time.Duration, n int, err error) {
	next := func(k int) string {
		if k < len(f) {
			return f[k]
		}
		return ""
	}
	switch {
	case first && word(f[0], "nửa") && unitOf(next(1)) != "":
		unit = unitLength(unitOf(next(1)))
		return unit / 2, unit, 2, nil
	case first && word(f[0], "half") && word(next(1), "an", "a") && unitOf(next(2)) != "":
		unit = unitLength(unitOf(next(2)))
		return unit / 2, unit, 3, nil
	case first && word(f[0], "a", "an", "one") && unitOf(next(1)) != "":
		unit = unitLength(unitOf(next(1)))
		return unit, unit, 2, nil
	case isNumber(f[0]) && unitOf(next(1)) != "":
		u := unitOf(next(1))
		if d, err = parseDelay(f[0] + u); err != nil {
			return 0, 0, 0, err
		}
		unit = unitLength(u)
		if u == "h" && word(next(2), "rưỡi") { // "2 tiếng rưỡi": two and a half hours
			return d + 30*time.Minute, unit, 3, nil
		}
		return d, unit, 2, nil
	case isNumber(f[0]) || !first && unitOf(next(1)) == "":
		return 0, 0, 0, nil
	}
	if u := unitOf(next(1)); u != "" { // 1.5 hours
		unit = unitLength(u)
		if d, err = fraction(lang, f[0], unit); !errors.Is(err, locale.ErrNotNumber) {
			return d, unit, 2, err
		}
	}
	if !first {
		return 0, 0, 0, nil
	}
	if num, u := splitUnit(f[0]); num != "" && !isNumber(num) { // 1.5h
		d, err = fraction(lang, num, unitLength(u))
		if !errors.Is(err, locale.ErrNotNumber) {
			return d, 0, 1, err
		}
	}
	switch d, err = parseDelay(f[0]); err {
	case nil:
		return d, 0, 1, nil
	case errTooFar:
		return 0, 0, 0, err
	}
	return 0, 0, 0, nil // not a delay: the text begins here
}

// unitLength is how long one of unit (parseDelay's letter) is.
func unitLength(unit string) time.Duration {
	d, _ := parseDelay("1" + unit)
	return d
}

// fraction is num (with decimals, as lang writes them) units; a number
// past maxAhead is too far, one finer than a nanosecond no delay.
func fraction(lang app.Lang, num string, unit time.Duration) (time.Duration, error) {
	plain, err := locale.ParseDecimal(lang, num)
	if err != nil {
		return 0, err
	}
	v, err := decimal.NewFromString(plain)
	switch {
	case err != nil, v.IsNegative(), v.Exponent() < -9:
		return 0, errBadWhen
	// The exponent first: 1e999999999 is cheap to read, not to compare.
	case v.Exponent() > 6, v.Mul(decimal.NewFromInt(int64(unit))).GreaterThan(decimal.NewFromInt(int64(maxAhead))):
		return 0, errTooFar
	}
	return time.Duration(v.Mul(decimal.NewFromInt(int64(unit))).IntPart()), nil
}

// splitUnit cuts a compact delay's unit off its number ("1.5h": "1.5",
// "h"); "" when s ends in no unit.
func splitUnit(s string) (num, unit string) {
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) + 1
	if i == 0 || i == len(s) || unitOf(s[i:]) == "" {
		return "", ""
	}
	return s[:i], unitOf(s[i:])
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
