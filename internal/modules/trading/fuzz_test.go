package trading

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// FuzzParseAmount: an amount a user types is refused, or positive, within
// the places and the maximum.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"100", "0.5", "1,000", "-5", "1e9", "NaN", "0.001", "99999999999", " 7 ", "0,5", "1.234.567,5", "1.500"} {
		f.Add(s)
	}
	maxCash := decimal.NewFromInt(1_000_000_000)
	f.Fuzz(func(t *testing.T, s string) {
		for _, lang := range locale.Langs {
			for _, places := range []int32{0, 2, 8} {
				v, err := ParseAmount(lang, s, places, maxCash)
				if err != nil {
					continue
				}
				if !v.IsPositive() || v.GreaterThan(maxCash) || !v.Equal(v.Truncate(places)) {
					t.Fatalf("ParseAmount(%s, %q, %d) = %s", lang, s, places, v)
				}
			}
		}
	})
}
