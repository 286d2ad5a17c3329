package remind

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/miti99bot/miti99bot/internal/app"
)

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

// why is err said in w's language when it is a refusal or a typed number
// that reads two ways (app.Words.Ambiguous); ok false for any other error.
func why(w app.Words, err error) (string, bool) {
	if ref := refusal(""); errors.As(err, &ref) {
		return ref.text(w), true
	}
	if s, ok := w.Ambiguous(err); ok {
		return s + ".", true
	}
	return "", false
}

// text is the refusal in w's language, with the bound it names.
func (r refusal) text(w app.Words) string {
	switch r {
	case errTooLong:
		return w.T(string(r), app.Args{"Max": strconv.Itoa(maxText)})
	case errTooFar:
		return w.T(string(r), app.Args{"Count": int(maxAhead / (24 * time.Hour))})
	case errTooEarly:
		return w.T(string(r), app.Args{"Count": int(minAhead / time.Second)})
	case errBadWhen:
		return w.T(string(r), app.Args{"Zone": w.ZoneName()})
	}
	return w.T(string(r))
}

// parse reads "<when> <text>" as now sees it on the reader's clock (zone),
// when written as a reader of either language would (point.go, delay.go; a
// number with decimals as lang writes it): a clock time ("at 19:30",
// "tomorrow 8am", "ngày mai lúc 8h", "7 giờ tối"; the next such time on
// that clock unless a day is said) or a delay ("10m", "1h30m", "in 10
// minutes", "sau 10 phút", "10 phút nữa").
func parse(lang app.Lang, args string, now time.Time, zone *time.Location) (at time.Time, text string, err error) {
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
	at, n, err := readPoint(f, now, zone)
	if err == nil && n == 0 {
		var d time.Duration
		d, n, err = readDelay(lang, f)
		at = now.Add(d)
	}
	if err == nil {
		text = cut(n)
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

// word reports whether w (as typed) is one of words, in any case; each of
// words is written with its diacritics, and also matches typed without
// any (a reader on a keyboard without them: "phut").
func word(w string, words ...string) bool {
	w = strings.ToLower(w)
	for _, x := range words {
		if w == x || w == bare(x) {
			return true
		}
	}
	return false
}

// bare is a Vietnamese word without its diacritics ("phút" -> "phut",
// "đêm" -> "dem").
func bare(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'đ':
			b.WriteRune('d')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
