package locale

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// symbols are a language's decimal mark and group separator, read once
// from CLDR (x/text prints a known number in the language) at the first
// number formatted, not at start.
type symbols struct{ decimal, group string }

var langSymbols = sync.OnceValue(func() map[Lang]symbols {
	out := map[Lang]symbols{}
	for _, l := range Langs {
		s := message.NewPrinter(language.Make(string(l))).Sprint(number.Decimal(1234567.5, number.Scale(1)))
		// "1,234,567.5" or "1.234.567,5": the first mark groups, the last
		// one marks the decimals.
		out[l] = symbols{group: s[1:2], decimal: s[len(s)-2 : len(s)-1]}
	}
	return out
})

// Number writes a plain decimal ("-1234567.50", as strconv or a decimal
// type's StringFixed gives it) as lang reads it: en 1,234,567.50, vi
// 1.234.567,50. Exact: the digits are the caller's, only the marks are
// the language's.
func Number(lang Lang, plain string) string {
	sym := langSymbols()[lang.Or(English)]
	sign := ""
	if rest, ok := strings.CutPrefix(plain, "-"); ok {
		sign, plain = "-", rest
	}
	whole, frac, hasFrac := strings.Cut(plain, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(sym.group)
		}
		b.WriteRune(d)
	}
	if hasFrac {
		b.WriteString(sym.decimal)
		b.WriteString(frac)
	}
	return b.String()
}

// Marks are lang's decimal mark and thousands separator (vi "," and "."):
// what a page that writes a number the bot did not (a chart's axis) puts
// in it, so it reads as the bot's replies do.
func Marks(lang Lang) (decimal, group string) {
	sym := langSymbols()[lang.Or(English)]
	return sym.decimal, sym.group
}

// Float is Number of f at places decimals.
func Float(lang Lang, f float64, places int) string {
	return Number(lang, strconv.FormatFloat(f, 'f', places, 64))
}

// Money writes an amount of cur ("VND", "USD") at its plain decimal as
// lang reads money: en as the bot always wrote it ($1,234.56, 1,234,567
// VND), vi with CLDR's pattern, the narrow symbol after the number
// (1.234,56 $, 1.234.567 ₫).
func Money(lang Lang, cur string, plain string) string {
	n := Number(lang, plain)
	sign := ""
	if rest, ok := strings.CutPrefix(n, "-"); ok {
		sign, n = "-", rest
	}
	switch lang.Or(English) {
	case Vietnamese:
		return sign + n + "\u00a0" + narrowSymbol(lang, cur)
	default:
		if cur == "USD" {
			return sign + "$" + n
		}
		return sign + n + " " + cur
	}
}

// narrowSymbol is CLDR's narrow symbol of cur in lang (₫, $), or the code
// for a currency x/text does not know.
func narrowSymbol(lang Lang, cur string) string {
	u, err := currency.ParseISO(cur)
	if err != nil {
		return cur
	}
	return message.NewPrinter(language.Make(string(lang))).Sprint(currency.NarrowSymbol(u))
}

// DateTime writes t (in the zone the reader sees it in) as lang reads a
// date and time: en 07 Dec 2026 08:00, vi 07/12/2026 08:00.
func DateTime(lang Lang, t time.Time) string {
	return t.Format(dateLayout(lang) + " 15:04")
}

// Date writes t's day as lang reads it: en 07 Dec 2026, vi 07/12/2026.
func Date(lang Lang, t time.Time) string { return t.Format(dateLayout(lang)) }

func dateLayout(lang Lang) string {
	if lang.Or(English) == Vietnamese {
		return "02/01/2006"
	}
	return "02 Jan 2006"
}
