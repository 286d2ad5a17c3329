package wordle

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
)

func TestAtBotWordleOffersTheUsersFinishedGameAsAGridWithoutLetters(t *testing.T) {
	clk := apptest.NewClock(apptest.T0)
	b := apptest.New(t, []app.Factory{fixed("crane", "robot")}, core.WithClock(clk.Now))
	if a := b.Inline(apptest.User, "wordle"); len(a.Results) != 0 {
		t.Fatalf("before any game: %+v, want nothing to share", a.Results)
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/wordle trace")
	if a := b.Inline(apptest.User, "wordle"); len(a.Results) != 0 {
		t.Fatalf("a game still running: %+v, want nothing to share", a.Results)
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/wordle crane")
	a := b.Inline(apptest.User, "Wordle")
	if len(a.Results) != 1 || !a.IsPersonal {
		t.Fatalf("answer %+v, want the user's game alone, personal", a)
	}
	text := a.Results[0].Text
	if want := "Wordle 2/6\n⬛🟩🟩🟨🟩\n🟩🟩🟩🟩🟩"; !strings.HasPrefix(text, want) {
		t.Fatalf("grid %q, want it to start %q", text, want)
	}
	if strings.ContainsAny(strings.TrimPrefix(text, "Wordle"), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t.Fatalf("the shared game %q spoils letters", text)
	}
	for _, w := range []string{"trace", "crane"} {
		if strings.Contains(strings.ToLower(a.Results[0].Title+a.Results[0].Description), w) {
			t.Fatalf("the result %+v names a guess", a.Results[0])
		}
	}
	if a := b.Inline(apptest.Admin, "wordle"); len(a.Results) != 0 {
		t.Fatalf("another user was offered %+v", a.Results)
	}
	clk.Add(24 * time.Hour)
	if a := b.Inline(apptest.User, "wordle"); len(a.Results) != 0 {
		t.Fatalf("the next day: %+v, want yesterday's game no more", a.Results)
	}
}

func TestAGameLostOnTheSixthTryIsSharedAsX(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane")})
	for _, w := range []string{"abide", "robot", "floor", "speed", "babes", "geese"} {
		b.MustSay(apptest.Group, apptest.User, "/wordle "+w)
	}
	a := b.Inline(apptest.User, "wordle")
	if len(a.Results) != 1 || !strings.HasPrefix(a.Results[0].Text, "Wordle X/6\n") {
		t.Fatalf("answer %+v, want the lost game as X/6", a.Results)
	}
}
