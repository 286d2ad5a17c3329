package boards

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// boardLine is one ranked line: the desk's money, the change signed.
func (d desk) boardLine(rank int, r trading.Row, mine bool) string {
	name := r.Name
	if name == "" {
		name = "user " + strconv.FormatInt(r.User, 10)
	}
	mark := ""
	if mine {
		mark = "👉 "
	}
	return fmt.Sprintf("%s%d. %s: %s\n", mark, rank, name, d.figures(r))
}

// outsiderLine is the line of an asker who is not on the board: where
// they would rank, unnumbered.
func (d desk) outsiderLine(rank int, r trading.Row) string {
	return fmt.Sprintf("👉 You would be %s: %s\n", ordinal(rank), d.figures(r))
}

// figures are a row's value and change: "$1,000.00 (7d +$5.00, 0.5%)".
func (d desk) figures(r trading.Row) string {
	change := fmt.Sprintf("%dd: new", trading.ChangeDays)
	if r.HasChange {
		change = fmt.Sprintf("%dd %s, %s%%", trading.ChangeDays, signed(r.Change, d.Money), signed(r.Pct.Round(1), func(v decimal.Decimal) string { return v.StringFixed(1) }))
	}
	return fmt.Sprintf("%s (%s)", d.Money(r.Value), change)
}

// wouldRank is the rank r would have among rows (sorted by sortRows) if it
// were one of them.
func wouldRank(rows []trading.Row, r trading.Row, sortRows func([]trading.Row)) int {
	all := append(slices.Clone(rows), r)
	sortRows(all)
	return slices.IndexFunc(all, func(x trading.Row) bool { return x.User == r.User }) + 1
}

// ordinal is n as "1st", "2nd", "3rd", "4th", "11th", "21st".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// signed is v formatted by f, with "+" before a positive amount.
func signed(v decimal.Decimal, f func(decimal.Decimal) string) string {
	if v.IsPositive() {
		return "+" + f(v)
	}
	return f(v)
}
