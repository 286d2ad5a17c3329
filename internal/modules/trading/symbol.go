package trading

// UpperAlnum reports whether s is between minLen and maxLen upper-case
// ASCII letters and digits: the shape of a coin symbol or a ticker.
// A loop, not a regexp: a counted repetition would compile at package
// init, on every cold start.
func UpperAlnum(s string, minLen, maxLen int) bool {
	if len(s) < minLen || len(s) > maxLen {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
