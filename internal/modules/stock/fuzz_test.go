package stock

import (
	"regexp"
	"testing"
)

// tickerShape is the ticker's shape as a regexp: the fuzz target holds
// tickerArg's loop to it.
var tickerShape = regexp.MustCompile(`^[A-Z][A-Z0-9]{2,9}$`)

// FuzzTickerArg: a typed ticker is taken exactly when, upper-cased and
// trimmed, it has a ticker's shape: letters and digits of a ticker's
// length, a letter first, fit for a cache key.
func FuzzTickerArg(f *testing.F) {
	for _, s := range []string{"fpt", "E1VFVN30", "F$T", "", "vnm ", "ÂBC", "a/b", "1FPT", "FP", "ABCDEFGHIJK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sym, ok := tickerArg(s)
		if ok != tickerShape.MatchString(sym) {
			t.Fatalf("tickerArg(%q) = %q, %v", s, sym, ok)
		}
	})
}
