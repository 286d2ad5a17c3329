package core_test

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
)

func TestTwoModulesNeverBothTakeAMessage(t *testing.T) {
	k := newAsker("ask")
	b := newConvBot(t, k.factory(), taker("game", "g:"), taker("greedy", ""))
	b.Converse(private, user, []apptest.Step{
		{Text: "g:crane", Want: "game took g:crane"},
		{Text: "hello", Want: "greedy took hello"},
		{Text: "/ask", Want: "ask: your name?"},
		{Text: "g:Ann", Want: "hello g:Ann, your age?"}, // the conversation first
	})
	if n := len(b.Replies()); n != 4 {
		t.Fatalf("%d replies to 4 messages: %q", n, b.Replies())
	}
}

func TestAnUntakenMessageGetsAHintInPrivateAndNothingInAGroup(t *testing.T) {
	b := newConvBot(t, taker("game", "g:"))
	b.Expect(private, user, "hello", "I only understand commands here: /help lists them.")
	if err := b.Handle(replyToBot(group, user, "hello")); err != nil {
		t.Fatal(err)
	}
	b.MustSay(group, user, "hello")
	if n := len(b.Replies()); n != 1 {
		t.Fatalf("replies %q, want only the private hint", b.Replies())
	}
}

func TestHelpSaysAnswersMayBeTypedWhereAModuleHearsThem(t *testing.T) {
	b := newConvBot(t, taker("game", "g:"), testModule(&atomic.Bool{}))
	if got := b.App.Registry().HelpText(app.RoleUser, app.English); !strings.Contains(got, "just type your answer") || !strings.Contains(got, "/cancel") {
		t.Fatalf("help:\n%s", got)
	}
	page, _ := b.App.Registry().HelpPage(app.RoleUser, "testmod", app.English)
	if strings.Contains(page, "just type") {
		t.Fatalf("a module that hears no text says answers may be typed:\n%s", page)
	}
	plain := newConvBot(t, testModule(&atomic.Bool{}))
	if got := plain.App.Registry().HelpText(app.RoleUser, app.English); strings.Contains(got, "just type") {
		t.Fatalf("help without a module that hears text:\n%s", got)
	}
}

func TestTheMenuOffersCancelWhereAModuleAsksQuestions(t *testing.T) {
	for _, tc := range []struct {
		mods []app.Factory
		want bool
	}{
		{[]app.Factory{newAsker("ask").factory()}, true},
		{[]app.Factory{taker("game", "")}, false},
	} {
		b := newConvBot(t, tc.mods...)
		got := slices.ContainsFunc(b.App.Registry().MenuCommands(app.English), func(c models.BotCommand) bool { return c.Command == "cancel" })
		if got != tc.want {
			t.Errorf("modules %v: /cancel in the menu %v, want %v", tc.mods[0].Name, got, tc.want)
		}
	}
}

func TestAnAnonymousAdminsReplyIsHeardAsTheirGroup(t *testing.T) {
	b := newConvBot(t, taker("game", ""))
	u := replyToBot(group, 1087968824, "crane")
	u.Message.From.IsBot = true // GroupAnonymousBot
	u.Message.SenderChat = &models.Chat{ID: group, Type: models.ChatTypeSupergroup, Title: "G"}
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "game took crane" {
		t.Fatalf("got %q", got)
	}
}
