package storage_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// FuzzKeyRules: a key the rules accept can be stored on every backend
// (DynamoDB's sort key is the strictest): valid UTF-8, no NUL, no "/", at
// most 1024 bytes, not "." or "..", not wrapped in "__" ("__x__"; "__"
// alone is not wrapped).
func FuzzKeyRules(f *testing.F) {
	for _, k := range []string{"game:-100", "price:BTC", "update:7", "a/b", "..", "__x__", "\x00", "é"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if storage.ValidateKey(key) != nil {
			return
		}
		switch {
		case key == "", !utf8.ValidString(key), strings.ContainsAny(key, "/\x00"), len(key) > storage.MaxKeyBytes,
			key == ".", key == "..", len(key) >= 4 && strings.HasPrefix(key, "__") && strings.HasSuffix(key, "__"):
			t.Fatalf("ValidateKey accepted %q", key)
		}
		if storage.ValidatePrefix(key) != nil {
			t.Fatalf("a valid key %q is no valid prefix", key)
		}
	})
}

// FuzzModuleRule holds ValidateModule's loop to the rule it states,
// ModuleNamePattern.
func FuzzModuleRule(f *testing.F) {
	rule := regexp.MustCompile(storage.ModuleNamePattern)
	for _, s := range []string{"coin", "core", "lol-schedule", "a_b", "", "Coin", "a b", "é", "abcdefghijabcdefghijabcdefghij12", "abcdefghijabcdefghijabcdefghij123"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := storage.ValidateModule(name) == nil, rule.MatchString(name); got != want {
			t.Fatalf("ValidateModule(%q) accepts: %v; %s says %v", name, got, storage.ModuleNamePattern, want)
		}
	})
}
