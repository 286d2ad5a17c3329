package app_test

import (
	"math/rand/v2"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
)

// TestASeededRandDrawsTheSameChoices: a module drawing from the engine's
// seeded source makes the same choices on every run of the seed.
func TestASeededRandDrawsTheSameChoices(t *testing.T) {
	draw := func(d app.Deps) [3]int { r := d.Random(); return [3]int{r.IntN(1000), r.IntN(1000), r.IntN(1000)} }
	a := draw(app.Deps{Rand: app.LockedRand(rand.NewPCG(1, 2))})
	b := draw(app.Deps{Rand: app.LockedRand(rand.NewPCG(1, 2))})
	if a != b {
		t.Fatalf("the same seed drew %v, then %v", a, b)
	}
	if draw(app.Deps{}) == draw(app.Deps{}) {
		t.Fatal("without a source, two draws of three numbers in a thousand were the same") // one in 10^9
	}
}
