package games

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

func TestRecord(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("game")

	t.Run("wins, losses and streaks add up", func(t *testing.T) {
		for _, g := range []struct {
			won   bool
			tries int
		}{{true, 3}, {true, 1}, {false, 6}, {true, 3}} {
			if err := Add(ctx, s, 7, Ended{Won: g.won, Tries: g.tries}); err != nil {
				t.Fatal(err)
			}
		}
		r, found, err := Load(ctx, s, 7)
		if err != nil || !found {
			t.Fatal(found, err)
		}
		if r.Summary(WordsIn(app.English)) != "Played 4, won 3 (75%)\nStreak 1, best 2" || !slices.Equal(r.Dist, []int{1, 0, 2}) {
			t.Fatalf("%q %v", r.Summary(WordsIn(app.English)), r.Dist)
		}
		if avg, ok := r.AverageTries(); !ok || avg != 7.0/3 {
			t.Fatalf("average %v", avg)
		}
	})
	t.Run("games finishing at once are all counted", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Go(func() {
				if err := Add(ctx, s, 8, Ended{Game: int64(i + 1), Won: true, Tries: 2}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if r, _, _ := Load(ctx, s, 8); r.Won != 10 || r.Dist[1] != 10 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a record stored in wordle's old fixed shape still reads", func(t *testing.T) {
		old, _ := json.Marshal(struct {
			Played, Won, Streak, MaxStreak int
			Dist                           [6]int
		}{Played: 2, Won: 1, Streak: 1, MaxStreak: 1, Dist: [6]int{0, 0, 0, 1}})
		_ = s.Put(ctx, Key(9), old)
		if err := Add(ctx, s, 9, Ended{Won: true, Tries: 2}); err != nil {
			t.Fatal(err)
		}
		if r, _, _ := Load(ctx, s, 9); r.Played != 3 || !slices.Equal(r.Dist, []int{0, 1, 0, 1, 0, 0}) {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a game whose end is seen again is counted once", func(t *testing.T) {
		// Seed 1 of the simulation: a winning guess whose write landed
		// unheard was run again, and the game went uncounted.
		for _, e := range []Ended{{Game: 41, Won: true, Tries: 2}, {Game: 41, Won: true, Tries: 2}, {Game: 42}} {
			if err := Add(ctx, s, 11, e); err != nil {
				t.Fatal(err)
			}
		}
		if r, _, _ := Load(ctx, s, 11); r.Played != 2 || r.Won != 1 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("no games yet", func(t *testing.T) {
		if _, found, err := Load(ctx, s, 10); found || err != nil {
			t.Fatal(found, err)
		}
	})
}

// A result that cannot be written is the handler's error: its update is
// run again, and the game it ended counted then (simulation seed 5, an
// outage from the record's write on).
func TestARecordThatCannotBeWrittenFailsTheUpdate(t *testing.T) {
	sw := storagetest.NewSwitch(memory.New())
	s := sw.For("game")
	e := &Ended{Game: 5, Tries: 3}
	sw.SetDown(true)
	if err := Finish(t.Context(), s, 1, e); !errors.Is(err, storagetest.ErrDown) {
		t.Fatalf("Finish in an outage: %v", err)
	}
	sw.SetDown(false)
	for range 2 { // run again, and again
		if err := Finish(t.Context(), s, 1, e); err != nil {
			t.Fatal(err)
		}
	}
	if r, _, _ := Load(t.Context(), s, 1); r.Played != 1 {
		t.Fatalf("%+v", r)
	}
	if err := Finish(t.Context(), s, 1, nil); err != nil {
		t.Fatal(err)
	}
}
