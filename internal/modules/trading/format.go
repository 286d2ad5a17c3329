package trading

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Money formats an amount with thousands separators at places decimals:
// Money(d, 2) = "1,234.50".
func Money(d decimal.Decimal, places int32) string {
	s := d.StringFixed(places)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// Qty formats a quantity without trailing zeros.
func Qty(d decimal.Decimal) string { return d.String() }
