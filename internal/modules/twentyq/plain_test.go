package twentyq

import (
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestQuestionsAndGuessesTypedWhileAGameRunsAreAsked(t *testing.T) {
	thingsBefore := things
	things = []string{"a cat"}
	t.Cleanup(func() { things = thingsBefore })
	b, f, _ := setup(t, nil)
	const hint = "I only understand commands here: /help lists them."
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"is it an animal?", hint}, // no game runs
		{"/twentyq", startText},
		{"is it an animal?", "1/20 is it an animal?: Yes"},
		{"is it a cat?", "2/20 is it a cat?: Correct\nYou got it in 2: a cat!"},
		{"is it a dog?", hint}, // the game is over
	})
	if len(f.requests) != 2 {
		t.Fatalf("%d Gemini calls, want 2", len(f.requests))
	}
	// In a group, only a reply to the bot is a question.
	b.MustSay(apptest.Group, apptest.User, "/twentyq")
	b.MustSay(apptest.Group, apptest.User, "is it an animal?")
	u := telegramtest.Text(apptest.Group, apptest.User, "is it an animal?")
	u.Message.ReplyToMessage = &models.Message{ID: 1, Chat: u.Message.Chat, From: &models.User{ID: 99, IsBot: true, Username: "miti99bot"}}
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "1/20 is it an animal?: Yes" || len(f.requests) != 3 {
		t.Fatalf("got %q after %d Gemini calls", got, len(f.requests))
	}
}
