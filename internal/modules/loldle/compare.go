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
	Label   string
	Values  []string
	Verdict verdict
}

// translated are the attributes whose values read in the reader's
// language (the text "value.<value>"); the others' values (species,
// resources, regions: the game's own names) read as the table has them.
var translated = []string{"gender", "positions", "range"}

// valueKey is an attribute value's text key: "value.positions_middle"
// (never a bare "other": a table holding "other" is a plural form).
func valueKey(attr, v string) string { return "value." + attr + "_" + strings.ToLower(v) }

// values are c's values as w's language reads them, joined.
func (c cell) values(w app.Words) string {
	if !slices.Contains(translated, c.Label) {
		return strings.Join(c.Values, ", ")
	}
	out := make([]string, len(c.Values))
	for i, v := range c.Values {
		out[i] = w.T(valueKey(c.Label, v))
	}
	return strings.Join(out, ", ")
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
	one := func(s string) []string { return []string{s} }
	return []cell{
		{"gender", one(guess.Gender), compareOne(guess.Gender, answer.Gender)},
		{"positions", guess.Positions, compareSets(guess.Positions, answer.Positions)},
		{"species", guess.Species, compareSets(guess.Species, answer.Species)},
		{"resource", one(guess.Resource), compareOne(guess.Resource, answer.Resource)},
		{"range", guess.Range, compareSets(guess.Range, answer.Range)},
		{"regions", guess.Regions, compareSets(guess.Regions, answer.Regions)},
		{"released", one(strconv.Itoa(guess.Year)), year},
	}
}

// table renders a guess's comparison, one attribute per line, named in
// w's language.
func table(w app.Words, guess *champion, cells []cell) string {
	var b strings.Builder
	b.WriteString(guess.Name)
	for _, c := range cells {
		fmt.Fprintf(&b, "\n%s %s: %s", marks[c.Verdict], w.T("attr."+c.Label), c.values(w))
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
