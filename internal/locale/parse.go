package locale

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// The ways a typed number is refused.
var (
	ErrNotNumber = errors.New("not a number")
	// ErrAmbiguous: the writer's language and the bot's old reading
	// (AmbiguousError) read two numbers in it.
	ErrAmbiguous = errors.New("a number that reads two ways")
)

// AmbiguousError is a typed number that reads as a whole number of
// thousands in its writer's language and as decimals after a dot, as the
// bot always read it ("1.500" in Vietnamese: 1500 or 1.5). Whole and
// Decimal are the two written so that each reads one way in the language
// ("1500", "1,5").
type AmbiguousError struct {
	Input, Whole, Decimal string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q reads as %s or %s", e.Input, e.Whole, e.Decimal)
}

func (e *AmbiguousError) Unwrap() error { return ErrAmbiguous }

// ParseDecimal reads a number a user typed in lang as a plain decimal
// ("-1234.5", or an exponent form the decimal type reads, "1e9"): with
// lang's thousands and decimal marks from CLDR (vi 1.234.567,5; en
// 1,234,567.5), spaces between thousands in any language (SI), or as the
// bot always read a number (a dot before the decimals, no thousands
// marks). A typed number never changes what it meant before: one both
// readings take but differently ("1.500" in Vietnamese) is refused with
// an *AmbiguousError, never guessed.
func ParseDecimal(lang Lang, s string) (string, error) {
	s = strings.TrimSpace(s)
	sym := langSymbols()[lang.Or(English)]
	mine, ok := readMarks(s, sym.decimal, sym.group)
	old, oldErr := decimal.NewFromString(s)
	switch {
	case !ok && oldErr != nil:
		return "", fmt.Errorf("%q: %w", s, ErrNotNumber)
	case !ok:
		return s, nil
	case oldErr != nil || old.Equal(decimal.RequireFromString(mine)):
		return mine, nil
	}
	// Only a dot read as a thousands mark differs from the old reading:
	// mine is whole.
	return "", &AmbiguousError{Input: s, Whole: mine, Decimal: strings.Replace(old.String(), ".", sym.decimal, 1)}
}

// readMarks reads s written with dec before its decimals and grp (or
// spaces, one kind throughout) between its thousands: the first group of
// one to three digits, not led by a zero, every other of three. ok is
// false for anything else.
func readMarks(s, dec, grp string) (plain string, ok bool) {
	sign := ""
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
		if sign == "+" {
			sign = ""
		}
	}
	whole, frac, hasFrac := strings.Cut(s, dec)
	if hasFrac && !digits(frac) {
		return "", false
	}
	if whole == "" && !hasFrac {
		return "", false
	}
	var groups []string
	for _, sep := range []string{grp, " ", "\u00a0", "\u202f"} {
		if strings.Contains(whole, sep) {
			if groups != nil {
				return "", false // two kinds of mark between thousands
			}
			groups = strings.Split(whole, sep)
		}
	}
	if groups == nil {
		if whole != "" && !digits(whole) {
			return "", false
		}
	} else {
		for i, g := range groups {
			if !digits(g) || (i > 0 && len(g) != 3) || (i == 0 && (len(g) > 3 || g[0] == '0')) {
				return "", false
			}
		}
		whole = strings.Join(groups, "")
	}
	if whole == "" {
		whole = "0"
	}
	if hasFrac {
		return sign + whole + "." + frac, true
	}
	return sign + whole, true
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
