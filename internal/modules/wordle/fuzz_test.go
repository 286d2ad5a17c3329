package wordle

import (
	"testing"
	"unicode/utf8"
)

// FuzzCheckGuess: a guess is refused with a reason, or is a listed five-letter
// word of a to z.
func FuzzCheckGuess(f *testing.F) {
	for _, s := range []string{"crane", "CRANE", "cran", "crànè", "zzzzz", "", "ab\x00de"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, guess string) {
		if why, _ := checkGuess(guess); why != "" {
			return
		}
		if utf8.RuneCountInString(guess) != 5 || !isWord(guess) {
			t.Fatalf("checkGuess accepted %q", guess)
		}
	})
}
