package loldle

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// champions.tsv: one champion per line, its source in data/SOURCE.md.
//
//go:embed data/champions.tsv
var championsTSV string

// champion is one line of the table: the attributes a guess is compared on.
type champion struct {
	Name      string
	Gender    string
	Positions []string
	Species   []string
	Resource  string
	Range     []string // Melee, Ranged, or both for champions that switch
	Regions   []string
	Year      int
}

// The categories each attribute may take; the table test holds every line
// to them, so a typo cannot make two champions silently differ.
var categories = map[string][]string{
	"gender":    {"Male", "Female", "Other"},
	"positions": {"Top", "Jungle", "Middle", "Bottom", "Support"},
	"range":     {"Melee", "Ranged"},
	"regions": {"Bandle City", "Bilgewater", "Camavor", "Demacia", "Freljord", "Icathia", "Ionia", "Ixtal", "Noxus",
		"Piltover", "Runeterra", "Shadow Isles", "Shurima", "Targon", "The Void", "Zaun"},
}

// parseChampions reads the table, refusing a malformed line or a name that
// normalises like another's.
func parseChampions(tsv string) ([]champion, error) {
	var out []champion
	seen := map[string]string{}
	for n, line := range strings.Split(tsv, "\n") {
		if line = strings.TrimRight(line, "\r"); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("champions.tsv:%d: %d fields, want 8", n+1, len(f))
		}
		year, err := strconv.Atoi(f[7])
		if err != nil || year < 2009 {
			return nil, fmt.Errorf("champions.tsv:%d: release year %q", n+1, f[7])
		}
		list := func(s string) []string { return strings.Split(s, ",") }
		c := champion{Name: f[0], Gender: f[1], Positions: list(f[2]), Species: list(f[3]), Resource: f[4],
			Range: list(f[5]), Regions: list(f[6]), Year: year}
		key := normalise(c.Name)
		if other, dup := seen[key]; dup || key == "" {
			return nil, fmt.Errorf("champions.tsv:%d: %q reads like %q", n+1, c.Name, other)
		}
		seen[key] = c.Name
		out = append(out, c)
	}
	return out, nil
}

// normalise keeps letters and digits, lower-cased: "Kai'Sa", "kaisa" and
// "KAI SA" are one name, as are "Nunu & Willump" and "nunu willump".
func normalise(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// embedded is the embedded table, parsed at its first use rather than at
// start: most cold starts serve no loldle, and the parse would be a large
// share of the Lambda bootstrap's set-up (docs/performance.md). A table that
// does not parse is a build defect, like a bad constant regexp, and
// TestTheChampionTableIsWellFormed fails on it before it ships.
var embedded = sync.OnceValue(func() *roster {
	cs, err := parseChampions(championsTSV)
	if err != nil {
		panic("loldle: the embedded table: " + err.Error())
	}
	return newRoster(cs)
})

// roster is the parsed table with its lookup.
type roster struct {
	list  []champion
	byKey map[string]*champion
}

func newRoster(cs []champion) *roster {
	r := &roster{list: cs, byKey: map[string]*champion{}}
	for i := range cs {
		r.byKey[normalise(cs[i].Name)] = &r.list[i]
	}
	return r
}

// get is the champion stored under name (a game's answer or guesses).
func (r *roster) get(name string) *champion { return r.byKey[normalise(name)] }

// minPrefix is the shortest start of a name accepted for the whole name.
const minPrefix = 3

// find resolves what a user typed: the exact name (normalised), or failing
// that the one champion whose name starts with it ("nunu", "jarvan").
// Several matches come back as candidates instead.
func (r *roster) find(typed string) (c *champion, candidates []string) {
	key := normalise(typed)
	if c, ok := r.byKey[key]; ok {
		return c, nil
	}
	if len(key) < minPrefix {
		return nil, nil
	}
	for i := range r.list {
		if strings.HasPrefix(normalise(r.list[i].Name), key) {
			c = &r.list[i]
			candidates = append(candidates, r.list[i].Name)
		}
	}
	if len(candidates) == 1 {
		return c, nil
	}
	return nil, candidates
}
