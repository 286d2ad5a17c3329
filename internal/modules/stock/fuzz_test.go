package stock

import "testing"

// FuzzTickerArg: a typed ticker is refused, or upper-case letters and digits
// of a ticker's length, fit for a cache key.
func FuzzTickerArg(f *testing.F) {
	for _, s := range []string{"fpt", "E1VFVN30", "F$T", "", "vnm ", "ÂBC", "a/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sym, ok := tickerArg(s)
		if ok && !tickerRE.MatchString(sym) {
			t.Fatalf("tickerArg(%q) = %q", s, sym)
		}
	})
}
