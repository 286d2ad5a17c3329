package chart

import (
	"math"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// Format writes money on a chart: Prefix, the amount with thousands
// separators, Suffix ("$61,234", "95,000,000 VND"); in Vietnamese (Lang)
// the amount of Currency as that language writes money (61.234 $,
// 95.000.000 ₫).
type Format struct {
	Prefix, Suffix string
	Currency       string      // "USD", "VND"
	Lang           locale.Lang // "": English
	// Places are the decimals; Auto picks them by size, as coin prices
	// need: none from 1,000, cents from 1, else four significant digits.
	Places int
}

// Auto is Format.Places chosen by the amount's size.
const Auto = -1

// String formats v.
func (f Format) String(v float64) string {
	places := f.Places
	if places == Auto {
		a := math.Abs(v)
		switch {
		case a >= 1000 || a == 0:
			places = 0
		case a >= 1:
			places = 2
		default:
			places = int(3 - math.Floor(math.Log10(a)))
		}
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', places, 64)
	sign := ""
	if v < 0 && strings.Trim(s, "0.") != "" {
		sign = "-"
	}
	if f.Lang == locale.Vietnamese && f.Currency != "" {
		return sign + locale.Money(f.Lang, f.Currency, s)
	}
	return sign + f.Prefix + locale.Number(locale.English, s) + f.Suffix
}
