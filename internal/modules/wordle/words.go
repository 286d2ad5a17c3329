package wordle

import (
	_ "embed"
	"slices"
	"strings"
)

var (
	//go:embed data/answers.txt
	answersFile string
	//go:embed data/guesses.txt
	guessesFile string

	answers = strings.Fields(answersFile)
	guesses = strings.Fields(guessesFile) // sorted by generate.sh
)

// isWord reports whether w is an accepted guess.
func isWord(w string) bool {
	_, ok := slices.BinarySearch(guesses, w)
	return ok
}

// Marks of one letter of a guess.
const (
	absent  = '⬛'
	present = '🟨'
	correct = '🟩'
)

// score marks guess against answer with the standard duplicate-letter
// rules: exact positions first; then each remaining letter is present only
// as many times as the answer still has it unmatched.
func score(guess, answer string) [5]rune {
	var marks [5]rune
	left := map[byte]int{}
	for i := range 5 {
		if guess[i] == answer[i] {
			marks[i] = correct
		} else {
			left[answer[i]]++
		}
	}
	for i := range 5 {
		if marks[i] == correct {
			continue
		}
		if left[guess[i]] > 0 {
			marks[i] = present
			left[guess[i]]--
		} else {
			marks[i] = absent
		}
	}
	return marks
}
