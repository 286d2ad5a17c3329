package boards

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// boardLine is one ranked line: the desk's money, the change signed.
func (d desk) boardLine(w app.Words, rank int, r trading.Row, mine bool) string {
	name := r.Name
	if name == "" {
		name = w.T("trading.board.user", app.Args{"ID": strconv.FormatInt(r.User, 10)})
	}
	mark := ""
	if mine {
		mark = "👉 "
	}
	return fmt.Sprintf("%s%d. %s: %s\n", mark, rank, name, d.figures(w, r))
}

// figures are a row's value and change in w's language: "$1,000.00 (7d
// +$5.00, 0.5%)".
func (d desk) figures(w app.Words, r trading.Row) string {
	money := func(v decimal.Decimal) string { return d.Cash(w.Lang, v) }
	change := w.T("trading.board.change_new", app.Args{"Days": trading.ChangeDays})
	if r.HasChange {
		change = w.T("trading.board.change", app.Args{"Days": trading.ChangeDays, "Change": signed(r.Change, money),
			"Pct": signed(r.Pct.Round(1), func(v decimal.Decimal) string { return locale.Number(w.Lang, v.StringFixed(1)) })})
	}
	return fmt.Sprintf("%s (%s)", money(r.Value), change)
}

// wouldRank is the rank r would have among rows (sorted by sortRows) if it
// were one of them.
func wouldRank(rows []trading.Row, r trading.Row, sortRows func([]trading.Row)) int {
	all := append(slices.Clone(rows), r)
	sortRows(all)
	return slices.IndexFunc(all, func(x trading.Row) bool { return x.User == r.User }) + 1
}

// ordinal is a rank as lang writes it: English "1st", "2nd", "3rd",
// "4th", "11th", "21st"; Vietnamese the number ("hạng 2" is the catalog's).
func ordinal(lang app.Lang, n int) string {
	if lang == locale.Vietnamese {
		return strconv.Itoa(n)
	}
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
