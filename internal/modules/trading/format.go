package trading

import (
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
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
	return sign + chart.Grouped(s)
}

// USD formats dollars at places decimals, the sign before the dollar sign:
// USD(-0.01, 2) = "-$0.01".
func USD(d decimal.Decimal, places int32) string {
	s := Money(d, places)
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		return "-$" + rest
	}
	return "$" + s
}

// VND formats whole dong: VND(-1000) = "-1,000 VND".
func VND(d decimal.Decimal) string { return Money(d, 0) + " VND" }

// Qty formats a quantity without trailing zeros.
func Qty(d decimal.Decimal) string { return d.String() }

// QtyIn is a quantity as lang reads a number, without trailing zeros.
func QtyIn(lang app.Lang, d decimal.Decimal) string { return locale.Number(lang, d.String()) }
