package app

import (
	"slices"
	"testing"
)

func TestCountOnceCountsAnIDOnceAndKeepsTheLastFew(t *testing.T) {
	var seen []int64
	var fresh bool
	steps := []struct {
		id   int64
		want bool
	}{{7, true}, {7, false}, {8, true}, {0, true}, {0, true}, {9, true}, {7, true}, {8, true}}
	for i, s := range steps {
		if seen, fresh = CountOnce(seen, s.id, 2); fresh != s.want {
			t.Fatalf("step %d: id %d counted %t, want %t (seen %v)", i, s.id, fresh, s.want, seen)
		}
	}
	if !slices.Equal(seen, []int64{7, 8}) {
		t.Fatalf("kept %v, want the last two: [7 8]", seen)
	}
}
