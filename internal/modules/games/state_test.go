package games_test

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

type counter struct {
	Moves int `json:"moves"`
}

func TestUpdateSeesNoGameAsNilAndStoresWhatItReturns(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	if g, err := games.Current[counter](ctx, s, 7); g != nil || err != nil {
		t.Fatalf("Current before any game = %v, %v; want nil, nil", g, err)
	}
	err := games.Update(ctx, s, 7, func(cur *counter) (*counter, error) {
		if cur != nil {
			t.Errorf("first Update saw %+v, want nil", cur)
		}
		return &counter{Moves: 1}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := games.Current[counter](ctx, s, 7); err != nil || g == nil || g.Moves != 1 {
		t.Fatalf("Current = %+v, %v; want 1 move", g, err)
	}
}

func TestUpdateReturningNilOrAnErrorWritesNothing(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	boom := errors.New("refused")
	if err := games.Update(ctx, s, 1, func(*counter) (*counter, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want the callback's error", err)
	}
	if err := games.Update(ctx, s, 1, func(*counter) (*counter, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if g, _ := games.Current[counter](ctx, s, 1); g != nil {
		t.Fatalf("a game was stored: %+v", g)
	}
}

func TestConcurrentMovesEachLandOnce(t *testing.T) {
	s := memory.New().For("g")
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			err := games.Update(context.Background(), s, 1, func(cur *counter) (*counter, error) {
				next := counter{}
				if cur != nil {
					next = *cur
				}
				next.Moves++
				return &next, nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if g, _ := games.Current[counter](t.Context(), s, 1); g == nil || g.Moves != 20 {
		t.Fatalf("moves = %+v, want 20", g)
	}
}

type round struct {
	Over bool `json:"over"`
}

func TestGiveUpEndsOnlyARunningGame(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	over := func(r *round) *bool { return &r.Over }
	anyGame := func(*round) bool { return true }
	if g, err := games.GiveUpIf(ctx, s, 1, anyGame, over); g != nil || err != nil {
		t.Fatalf("GiveUpIf without a game = %+v, %v; want nil, nil", g, err)
	}
	if err := games.Update(ctx, s, 1, func(*round) (*round, error) { return &round{}, nil }); err != nil {
		t.Fatal(err)
	}
	if g, err := games.GiveUpIf(ctx, s, 1, anyGame, over); err != nil || g == nil || !g.Over {
		t.Fatalf("GiveUpIf of a running game = %+v, %v; want it ended", g, err)
	}
	if g, err := games.GiveUpIf(ctx, s, 1, anyGame, over); g != nil || err != nil {
		t.Fatalf("GiveUpIf of an ended game = %+v, %v; want nil, nil", g, err)
	}
}

// The longest button data the game buttons make (the largest ids) fits
// Telegram's 64 bytes: Keyboard would panic otherwise.
func TestTheLongestGameButtonFitsTelegramsLimit(t *testing.T) {
	type g struct {
		ID   int64
		Over bool
		games.LastMove
	}
	p := &games.Play[g, *g]{Prefix: "loldle:", ID: func(x *g) int64 { return x.ID }, Over: func(x *g) *bool { return &x.Over }}
	big := &g{ID: math.MinInt64}
	w := games.WordsIn(app.Vietnamese)
	for _, kb := range []*models.InlineKeyboardMarkup{p.Running(w, big), p.Finished(w, big), games.Confirm(p, w, big, math.MinInt64)} {
		for _, row := range kb.InlineKeyboard {
			for _, b := range row {
				if len(b.CallbackData) > app.MaxCallbackData {
					t.Errorf("%q: %d bytes", b.CallbackData, len(b.CallbackData))
				}
			}
		}
	}
}
