package loldle

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// verdict is how one attribute of a guess compares with the answer's.
type verdict int

const (
	miss    verdict = iota // nothing in common
	partial                // lists that overlap but differ
	match                  // the same
	older                  // release year: the answer came out later
	newer                  // release year: the answer came out earlier
)

var marks = map[verdict]string{miss: "🟥", partial: "🟨", match: "🟩", older: "⬆️", newer: "⬇️"}

// cell is one attribute of a guessed champion with its verdict. Label is
// the attribute's text key under "attr.".
type cell struct {
	Label, Value string
	Verdict      verdict
}

// compareSets: equal sets match, overlapping ones are partial.
func compareSets(guess, answer []string) verdict {
	a, b := slices.Sorted(slices.Values(guess)), slices.Sorted(slices.Values(answer))
	if slices.Equal(a, b) {
		return match
	}
	for _, g := range guess {
		if slices.Contains(answer, g) {
			return partial
		}
	}
	return miss
}

func compareOne(guess, answer string) verdict {
	if guess == answer {
		return match
	}
	return miss
}

// compare lays a guess against the answer, attribute by attribute.
func compare(guess, answer *champion) []cell {
	year := match
	switch {
	case guess.Year < answer.Year:
		year = older
	case guess.Year > answer.Year:
		year = newer
	}
	join := func(s []string) string { return strings.Join(s, ", ") }
	return []cell{
		{"gender", guess.Gender, compareOne(guess.Gender, answer.Gender)},
		{"positions", join(guess.Positions), compareSets(guess.Positions, answer.Positions)},
		{"species", join(guess.Species), compareSets(guess.Species, answer.Species)},
		{"resource", guess.Resource, compareOne(guess.Resource, answer.Resource)},
		{"range", join(guess.Range), compareSets(guess.Range, answer.Range)},
		{"regions", join(guess.Regions), compareSets(guess.Regions, answer.Regions)},
		{"released", strconv.Itoa(guess.Year), year},
	}
}

// table renders a guess's comparison, one attribute per line, named in
// w's language.
func table(w app.Words, guess *champion, cells []cell) string {
	var b strings.Builder
	b.WriteString(guess.Name)
	for _, c := range cells {
		fmt.Fprintf(&b, "\n%s %s: %s", marks[c.Verdict], w.T("attr."+c.Label), c.Value)
	}
	return b.String()
}

// summary is a guess's verdicts on one line, for the history of a game.
func summary(guess *champion, cells []cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(marks[c.Verdict])
	}
	return b.String() + " " + guess.Name
}
