package coin

import "testing"

// FuzzSymbolArg: a typed coin symbol is refused, or fit for a cache key and
// a Binance pair.
func FuzzSymbolArg(f *testing.F) {
	for _, s := range []string{"btc", "PEPE", "B$C", "", "1INCH", "a/b", "ETH?x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sym, ok := symbolArg(s)
		if ok && !symbolRE.MatchString(sym) {
			t.Fatalf("symbolArg(%q) = %q", s, sym)
		}
	})
}
