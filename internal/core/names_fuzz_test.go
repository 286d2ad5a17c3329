package core

import (
	"regexp"
	"testing"
)

// FuzzValidName holds validName's loop to the rule it states, nameRule.
func FuzzValidName(f *testing.F) {
	rule := regexp.MustCompile(nameRule)
	for _, s := range []string{"ping", "coin_buy", "", "Ping", "a-b", "x", "abcdefghijabcdefghijabcdefghij12", "abcdefghijabcdefghijabcdefghij123", "é", "a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := validName(name), rule.MatchString(name); got != want {
			t.Fatalf("validName(%q) = %v, %s says %v", name, got, nameRule, want)
		}
	})
}
