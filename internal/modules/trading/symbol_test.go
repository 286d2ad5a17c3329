package trading

import "testing"

func TestUpperAlnumTakesUpperCaseLettersAndDigitsWithinTheLengths(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"BTC", true},
		{"E1VFVN30", true},
		{"12", true},
		{"B", false},           // too short
		{"ABCDEFGHIJK", false}, // too long
		{"btc", false},
		{"BT-C", false},
		{"BTÇ", false},
		{"", false},
		{"BTC ", false},
	} {
		if got := UpperAlnum(c.s, 2, 10); got != c.want {
			t.Errorf("UpperAlnum(%q, 2, 10) = %v, want %v", c.s, got, c.want)
		}
	}
}
