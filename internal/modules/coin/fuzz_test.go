package coin

import (
	"regexp"
	"testing"
)

// symbolShape is a symbol's shape as a regexp: the fuzz target holds
// symbolArg's loop to it.
var symbolShape = regexp.MustCompile(`^[A-Z0-9]{2,10}$`)

// FuzzSymbolArg: a typed coin symbol is taken exactly when, upper-cased
// and trimmed, it has a symbol's shape: fit for a cache key and a Binance
// pair.
func FuzzSymbolArg(f *testing.F) {
	for _, s := range []string{"btc", "PEPE", "B$C", "", "1INCH", "a/b", "ETH?x", "B", "ABCDEFGHIJK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sym, ok := symbolArg(s)
		if ok != symbolShape.MatchString(sym) {
			t.Fatalf("symbolArg(%q) = %q, %v", s, sym, ok)
		}
	})
}
