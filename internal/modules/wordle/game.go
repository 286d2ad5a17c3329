package wordle

import (
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/modules/games"
)

const maxGuesses = 6

// game is one Wordle, stored per subject (the chat in groups, the user in
// private chats) with games.Move, so it survives restarts and moves with
// the data, and a move is made once however often Telegram delivers it.
type game struct {
	// ID tells this game from the chat's next one, for its buttons.
	ID      int64    `json:"id,omitempty"`
	Answer  string   `json:"answer"`
	Guesses []string `json:"guesses"`
	Over    bool     `json:"over"`
	Won     bool     `json:"won"`
	games.LastMove
}

// board renders the guesses so far, with the keyboard of used letters.
func (g *game) board() string {
	var b strings.Builder
	for _, guess := range g.Guesses {
		marks := score(guess, g.Answer)
		b.WriteString(string(marks[:]) + "  " + strings.ToUpper(guess) + "\n")
	}
	fmt.Fprintf(&b, "%d/%d", len(g.Guesses), maxGuesses)
	if kb := g.keyboard(); kb != "" {
		b.WriteString("\n" + kb)
	}
	return b.String()
}

// keyboard lists the letters guessed so far by what they revealed.
func (g *game) keyboard() string {
	best := map[byte]rune{}
	rank := map[rune]int{absent: 1, present: 2, correct: 3}
	for _, guess := range g.Guesses {
		marks := score(guess, g.Answer)
		for i := range 5 {
			if rank[marks[i]] > rank[best[guess[i]]] {
				best[guess[i]] = marks[i]
			}
		}
	}
	var lines []string
	for _, mark := range []rune{correct, present, absent} {
		var letters []string
		for c := byte('a'); c <= 'z'; c++ {
			if best[c] == mark {
				letters = append(letters, strings.ToUpper(string(c)))
			}
		}
		if len(letters) > 0 {
			lines = append(lines, string(mark)+" "+strings.Join(letters, " "))
		}
	}
	return strings.Join(lines, "\n")
}
