package core_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestAConversationTakesTheUsersNextPlainMessagesStepByStep(t *testing.T) {
	k := newAsker("ask")
	b := newConvBot(t, k.factory())
	b.Converse(private, user, []apptest.Step{
		{Text: "/ask", Want: "ask: your name?"},
		{Text: "Ann", Want: "hello Ann, your age?"},
		{Text: "30", Want: "Ann is 30"},
		{Text: "more", Want: "I only understand commands here: /help lists them."},
	})
}

func TestACommandDuringAConversationRunsAsACommandAndTheConversationWaitsOn(t *testing.T) {
	k := newAsker("ask")
	b := newConvBot(t, k.factory(), testModule(&atomic.Bool{}))
	b.Converse(private, user, []apptest.Step{
		{Text: "/ask", Want: "ask: your name?"},
		{Text: "/echo hi", Want: "args=hi"},
		{Text: "Ann", Want: "hello Ann, your age?"},
	})
}

func TestCancelEndsAnyConversation(t *testing.T) {
	k := newAsker("ask")
	b := newConvBot(t, k.factory())
	b.Converse(private, user, []apptest.Step{
		{Text: "/cancel", Want: "Nothing to cancel."},
		{Text: "/ask", Want: "ask: your name?"},
		{Text: "/cancel", Want: "Cancelled."},
		{Text: "Ann", Want: "I only understand commands here: /help lists them."},
	})
	if got := <-k.ends; got != app.EndCancelled {
		t.Fatalf("the module heard %v, want cancelled", got)
	}
	b.clk.Add(time.Hour)
	b.tick(t)
	if len(k.ends) != 0 {
		t.Fatal("a cancelled conversation timed out too")
	}
}

func TestAConversationWaitingTooLongEndsByItsTimerWithOneMessage(t *testing.T) {
	k := newAsker("ask")
	k.silent = true
	b := newConvBot(t, k.factory())
	b.Converse(private, user, []apptest.Step{
		{Text: "/ask", Want: "ask: your name?"},
		{Text: "Ann", Want: "hello Ann, your age?"}, // the age step waits a minute
	})
	b.clk.Add(30 * time.Second)
	b.tick(t)
	if got := b.Last(); got != "hello Ann, your age?" {
		t.Fatalf("timed out early: %q", got)
	}
	b.clk.Add(2 * time.Minute)
	b.tick(t)
	b.tick(t)
	sent := b.Replies()
	if got := sent[len(sent)-1]; !strings.HasPrefix(got, "No answer came in time") || strings.HasPrefix(sent[len(sent)-2], "No answer") {
		t.Fatalf("replies %q: want one time-out message", sent)
	}
	b.Expect(private, user, "30", "I only understand commands here: /help lists them.")
}

func TestAModuleHearsItsConversationTimeOut(t *testing.T) {
	k := newAsker("ask")
	b := newConvBot(t, k.factory())
	b.MustSay(private, user, "/ask")
	b.clk.Add(6 * time.Minute)
	b.tick(t)
	if got := <-k.ends; got != app.EndTimedOut {
		t.Fatalf("heard %v, want timed out", got)
	}
}

func TestANewConversationReplacesTheOldOneWhichIsTold(t *testing.T) {
	first, second := newAsker("first"), newAsker("second")
	b := newConvBot(t, first.factory(), second.factory())
	b.Converse(private, user, []apptest.Step{
		{Text: "/first", Want: "first: your name?"},
		{Text: "/second", Want: "second: your name?"},
		{Text: "Ann", Want: "hello Ann, your age?"},
	})
	if got := <-first.ends; got != app.EndReplaced {
		t.Fatalf("first heard %v, want replaced", got)
	}
	if first.steps.Load() != 0 || second.steps.Load() != 1 {
		t.Fatalf("steps: first %d, second %d", first.steps.Load(), second.steps.Load())
	}
}

func TestInAGroupAConversationAsksWithAForcedReplyAndHearsOnlyReplies(t *testing.T) {
	k := newAsker("ask")
	b := newConvBot(t, k.factory())
	b.MustSay(group, user, "/ask")
	if m := b.Srv.Messages(); !strings.Contains(m[0].ReplyMarkup, `"force_reply":true`) {
		t.Fatalf("the question's markup is %q, want a forced reply", m[0].ReplyMarkup)
	}
	b.MustSay(group, user, "Ann") // not a reply: not for the bot
	if err := b.Handle(replyToBot(group, admin, "Bob")); err != nil {
		t.Fatal(err)
	}
	if k.steps.Load() != 0 {
		t.Fatal("a step took a message that was not a reply from its user")
	}
	if err := b.Handle(replyToBot(group, user, "Ann")); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "hello Ann, your age?" {
		t.Fatalf("got %q", got)
	}
}

func TestAModuleCannotDeclareTheEnginesCancel(t *testing.T) {
	f := module(app.Module{Name: "alpha", Commands: []app.Command{{Name: "cancel", Description: "x", Handler: func(context.Context, *app.Request) error { return nil }}}})
	client, _ := telegram.New("1:x")
	if _, err := core.New(memory.New(), client, core.WithModules([]app.Factory{f})); err == nil {
		t.Fatal("built a module with /cancel")
	}
}

func TestAConversationMovesWithItsGroupToTheSupergroup(t *testing.T) {
	k := newAsker("ask")
	k.silent = true
	b := newConvBot(t, k.factory())
	const moved = -1009
	b.MustSay(group, user, "/ask")
	if err := b.App.ChatChanged(t.Context(), app.ChatChange{ChatID: group, MovedTo: moved}); err != nil {
		t.Fatal(err)
	}
	if err := b.Handle(replyToBot(moved, user, "Ann")); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "hello Ann, your age?" {
		t.Fatalf("in the supergroup: %q", got)
	}
	b.clk.Add(2 * time.Minute)
	b.tick(t)
	b.tick(t)
	if m := b.Srv.Messages(); m[len(m)-1].ChatID != moved || !strings.HasPrefix(m[len(m)-1].Text, "No answer came in time") || strings.HasPrefix(m[len(m)-2].Text, "No answer") {
		t.Fatalf("messages %+v: want one time-out in the supergroup", m)
	}
}

// Two messages of one user racing (two replicas, say): the one that moves
// the conversation first has the step; the other's move is refused, and
// its update, delivered again, answers the step the conversation is at.
func TestOfTwoRacingMessagesOnlyOneMovesAStepTheOtherAnswersTheNext(t *testing.T) {
	k := newAsker("ask")
	k.ageTTL = time.Hour
	b := newConvBot(t, k.factory())
	b.MustSay(private, user, "/ask")
	var raced atomic.Bool
	k.before = func() {
		if !raced.Swap(true) {
			b.MustSay(private, user, "Bob") // lands while Ann's step runs
		}
	}
	ann := withID(telegramtest.Text(private, user, "Ann"), 515151)
	if err := b.Handle(ann); err == nil {
		t.Fatal("Ann's step moved a conversation Bob's message had moved already")
	}
	if got := b.Last(); got != "hello Bob, your age?" {
		t.Fatalf("got %q", got)
	}
	b.clk.Add(3 * time.Minute) // the failed run's claim is stale: the redelivery runs
	if err := b.Handle(withID(telegramtest.Text(private, user, "Ann"), 515151)); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "Bob is Ann" {
		t.Fatalf("the redelivery got %q", got)
	}
}

func TestCancelInAGroupWithNothingToCancelSaysNothing(t *testing.T) {
	b := newConvBot(t, newAsker("ask").factory())
	b.MustSay(group, user, "/cancel")
	if r := b.Replies(); len(r) != 0 {
		t.Fatalf("replies %q: a group's /cancel may be another bot's", r)
	}
	b.MustSay(group, user, "/ask")
	b.Expect(group, user, "/cancel", "Cancelled.")
}
