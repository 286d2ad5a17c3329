package loldle

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestAChampionNameTypedWhileAGameRunsIsAGuessOnce(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri", "Zed")})
	const hint = "I only understand commands here: /help lists them."
	b.Expect(apptest.PrivateChat, apptest.User, "lux", hint) // no game runs
	b.MustSay(apptest.PrivateChat, apptest.User, "/loldle")
	for range 2 { // Telegram delivers the guess twice
		u := telegramtest.Text(apptest.PrivateChat, apptest.User, "lux")
		u.ID = 880001
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Last(); !strings.HasPrefix(got, "Lux\n") || !strings.HasSuffix(got, "1/8") {
		t.Fatalf("the plain guess got %q", got)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "mal", "Which one? Malphite, Malzahar")
	b.Expect(apptest.PrivateChat, apptest.User, "what a game", hint)
	b.MustSay(apptest.PrivateChat, apptest.User, "Ahri")
	if got := b.Last(); !strings.Contains(got, "2/8") {
		t.Fatalf("the second guess got %q", got)
	}
}
