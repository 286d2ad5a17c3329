package wordle

import (
	_ "embed"
	"sort"
)

var (
	//go:embed data/answers.txt
	answers wordList
	//go:embed data/guesses.txt
	guesses wordList // sorted
)

// A wordList is an embedded file of one five-letter word per line, read
// in place: word i starts at byte i*6. Splitting the lists at start-up
// would allocate a string per word in every process, and in every Lambda
// cold start.
// TestTheEmbeddedListsAreUsable holds the format.
type wordList string

const lineLen = len("abcde\n")

func (l wordList) len() int { return len(l) / lineLen }

func (l wordList) at(i int) string { return string(l[i*lineLen : i*lineLen+5]) }

// isWord reports whether w is an accepted guess.
func isWord(w string) bool {
	i := sort.Search(guesses.len(), func(i int) bool { return guesses.at(i) >= w })
	return i < guesses.len() && guesses.at(i) == w
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
