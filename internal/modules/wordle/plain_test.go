package wordle

import (
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const hint = "I only understand commands here: /help lists them."

func TestAPlainWordAfterWordleCountsAsAGuessOnce(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane")})
	b.Expect(apptest.PrivateChat, apptest.User, "trace", hint) // no game runs yet
	b.Expect(apptest.PrivateChat, apptest.User, "/wordle", startText)
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "Trace")
	u.ID = 770001
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); !strings.HasPrefix(got, "⬛🟩🟩🟨🟩  TRACE\n1/6") {
		t.Fatalf("the plain guess got %q", got)
	}
	again := telegramtest.Text(apptest.PrivateChat, apptest.User, "Trace")
	again.ID = 770001 // Telegram delivers it again
	if err := b.Handle(again); err != nil {
		t.Fatal(err)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "crane", "⬛🟩🟩🟨🟩  TRACE\n🟩🟩🟩🟩🟩  CRANE\n2/6\n🟩 A C E N R\n⬛ T\nSolved in 2/6!")
	b.Expect(apptest.PrivateChat, apptest.User, "robot", hint) // the game is over
}

func TestInAGroupOnlyAReplyToTheGamesMessageIsAGuess(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane")})
	b.MustSay(apptest.Group, apptest.User, "/wordle")
	_, kb, ok := b.Srv.Keyboard(apptest.Group)
	if !ok {
		t.Fatal("the game's message has no buttons")
	}
	reply := func(text string, markup *models.InlineKeyboardMarkup) *models.Update {
		u := telegramtest.Text(apptest.Group, apptest.User, text)
		u.Message.ReplyToMessage = &models.Message{ID: 1, Chat: u.Message.Chat, ReplyMarkup: markup,
			From: &models.User{ID: 99, IsBot: true, Username: "miti99bot"}}
		return u
	}
	before := len(b.Replies())
	b.MustSay(apptest.Group, apptest.User, "trace")       // not a reply
	if err := b.Handle(reply("trace", nil)); err != nil { // a reply to another message of the bot
		t.Fatal(err)
	}
	if n := len(b.Replies()); n != before {
		t.Fatalf("a group message that is not a reply to the game got %q", b.Replies()[before:])
	}
	if err := b.Handle(reply("trace", &models.InlineKeyboardMarkup{InlineKeyboard: kb})); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); !strings.HasPrefix(got, "⬛🟩🟩🟨🟩  TRACE\n1/6") {
		t.Fatalf("the reply to the game got %q", got)
	}
}

// A typed guess that ended the game, its reply refused (a 5xx), is
// delivered again: the game is over by then, yet the message is the move
// the game remembers, so it is taken again and says again what it earned
// (in a private chat not the hint; in a group not silence).
func TestATypedGuessThatEndedTheGameIsAnsweredWhenDeliveredAgain(t *testing.T) {
	for _, tt := range []struct {
		name string
		chat int64
	}{{"private", apptest.PrivateChat}, {"group", apptest.Group}} {
		t.Run(tt.name, func(t *testing.T) {
			b := apptest.New(t, []app.Factory{fixed("crane")})
			b.MustSay(tt.chat, apptest.User, "/wordle")
			_, kb, _ := b.Srv.Keyboard(tt.chat)
			guess := func() *models.Update {
				u := telegramtest.Text(tt.chat, apptest.User, "crane")
				u.ID = 770101
				if tt.chat != apptest.PrivateChat {
					u.Message.ReplyToMessage = &models.Message{ID: 1, Chat: u.Message.Chat, ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: kb},
						From: &models.User{ID: 99, IsBot: true, Username: "miti99bot"}}
				}
				return u
			}
			b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
			if err := b.Handle(guess()); err == nil {
				t.Fatal("the guess was handled though its reply was refused")
			}
			before := len(b.Replies())
			if err := b.Handle(guess()); err != nil {
				t.Fatal(err)
			}
			got := b.Replies()[before:]
			if len(got) != 1 || !strings.HasSuffix(got[0], "Solved in 1/6!") {
				t.Fatalf("the redelivered winning guess got %q", got)
			}
		})
	}
}
