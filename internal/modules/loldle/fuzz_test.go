package loldle

import "testing"

// FuzzFind: a typed champion name finds one champion, a short list to pick
// from, or nothing; never a panic.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"ahri", "KAISA", "Kai'Sa", "mal", "", "   ", "ñ", "Nunu & Willump"} {
		f.Add(s)
	}
	cs, err := parseChampions(championsTSV)
	if err != nil {
		f.Fatal(err)
	}
	r := newRoster(cs)
	f.Fuzz(func(t *testing.T, typed string) {
		c, candidates := r.find(typed)
		if c != nil && len(candidates) > 0 {
			t.Fatalf("find(%q) gave a champion and candidates", typed)
		}
	})
}
