package twentyq

import (
	"errors"
	"maps"
	"strconv"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A move that ends a game, whose write (or the result's) fails while it
// lands or not, fails its update; run again, the game it ended is counted,
// once (as wordle's and loldle's since games.EndedBy).
func TestAGameEndedByAMoveRunAgainIsCountedOnce(t *testing.T) {
	thingsBefore := things
	things = []string{"a cat"}
	t.Cleanup(func() { things = thingsBefore })
	const won, gaveUp = "Played 1, won 1; 1.0 questions per win on average.", "Played 1, won 0; - questions per win on average."
	tests := []struct {
		name, command string
		key           string // the write that fails
		land          bool
		stats         string
	}{
		{"the winning question's move lands unheard", "/twentyq is it a cat?", "game:", true, won},
		{"the winning question's result is not written", "/twentyq is it a cat?", "results:", false, won},
		{"the winning question's result lands unheard", "/twentyq is it a cat?", "results:", true, won},
		{"the give-up lands unheard", "/twentyq_giveup", "game:", true, gaveUp},
		{"the give-up's result is not written", "/twentyq_giveup", "results:", false, gaveUp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeGemini{}
			s := apptest.FakeAPIs(t, f, map[string]string{settingURL: ""})
			s[settingKey] = apiKey
			store := storagetest.NewUnheard(memory.New())
			b := apptest.NewOnStore(t, store, telegramtest.New(t), nil, []app.Factory{Factory}, core.WithSettings(maps.Clone(s)))
			b.MustSay(apptest.Group, apptest.User, "/twentyq")
			store.Arm(Name, tt.key, tt.land)
			u := telegramtest.Text(apptest.Group, apptest.User, tt.command)
			if err := b.Handle(u); !errors.Is(err, storagetest.ErrUnheard) {
				t.Fatalf("the update whose write failed: %v; want it failed, to be run again", err)
			}
			if err := b.Handle(u); err != nil {
				t.Fatalf("the redelivery: %v", err)
			}
			b.Expect(apptest.Group, apptest.User, "/twentyq_stats", tt.stats)
		})
	}
}

// A game stored before games had ids (or by an older binary during a
// cutover) cannot say it was counted: a give-up run again after its reply
// failed counts it once, not again.
func TestAGiveUpOfAGameWithoutAnIDRunAgainCountsItOnce(t *testing.T) {
	f := &fakeGemini{}
	s := apptest.FakeAPIs(t, f, map[string]string{settingURL: ""})
	s[settingKey] = apiKey
	store := memory.New()
	srv := telegramtest.New(t)
	b := apptest.NewOnStore(t, store, srv, nil, []app.Factory{Factory}, core.WithSettings(maps.Clone(s)))
	if err := store.For(Name).Put(t.Context(), "game:"+strconv.FormatInt(apptest.Group, 10), []byte(`{"secret":"a cat","asked":[],"over":false,"won":false}`)); err != nil {
		t.Fatal(err)
	}
	srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
	u := telegramtest.Text(apptest.Group, apptest.User, "/twentyq_giveup")
	if err := b.Handle(u); err == nil {
		t.Fatal("the give-up whose reply failed: no error; want it run again")
	}
	if err := b.Handle(u); err != nil {
		t.Fatalf("the redelivery: %v", err)
	}
	b.Expect(apptest.Group, apptest.User, "/twentyq_stats", "Played 1, won 0; - questions per win on average.")
}
