package core_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// The step moves the conversation, then the store fails: the update is
// neither finished nor recorded, and Telegram delivers it again. The
// redelivery runs the step again from the wait its message answered, so
// it says again what it said, and the conversation has moved once: the
// next message answers the next step.
func TestAPlainMessageDeliveredAgainMovesTheConversationOnce(t *testing.T) {
	k := newAsker("ask")
	k.ageTTL = time.Hour
	b := newConvBot(t, k.factory())
	b.MustSay(private, user, "/ask")
	var once sync.Once
	k.onStep = func() { once.Do(func() { b.Store.SetDown(true) }) }
	if err := b.Handle(withID(telegramtest.Text(private, user, "Ann"), 424242)); err == nil {
		t.Fatal("the update ended with the store down")
	}
	b.Store.SetDown(false)
	b.clk.Add(3 * time.Minute) // past the claim's stale mark: the redelivery runs
	if got := saysOn(t, b, withID(telegramtest.Text(private, user, "Ann"), 424242)); !slices.Equal(got, []string{"hello Ann, your age?"}) {
		t.Fatalf("the redelivery said %q, want the name step's question again", got)
	}
	b.Expect(private, user, "30", "Ann is 30")
}

// A step moved its conversation, then its question never reached the
// user (the Bot API refused it; a process killed before it is the same).
// The message delivered again asks it again: a handled message whose
// question was lost would leave the user waiting on a question they never
// saw, and in a group unable to answer it (the answer is a reply to it).
func TestAStepWhoseQuestionWasLostAsksItAgainWhenItsMessageComesAgain(t *testing.T) {
	for _, tt := range []struct {
		name string
		chat int64
		msg  func(text string) *models.Update
	}{
		{"private", private, func(text string) *models.Update { return telegramtest.Text(private, user, text) }},
		{"group", group, func(text string) *models.Update { return replyToBot(group, user, text) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k := newAsker("ask")
			k.ageTTL = time.Hour
			b := newConvBot(t, k.factory())
			b.MustSay(tt.chat, user, "/ask")
			b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
			if err := b.Handle(withID(tt.msg("Ann"), 434343)); err == nil {
				t.Fatal("the update ended handled though its question was refused")
			}
			if got := saysOn(t, b, withID(tt.msg("Ann"), 434343)); !slices.Equal(got, []string{"hello Ann, your age?"}) {
				t.Fatalf("the redelivery said %q, want the question the first run lost", got)
			}
			if err := b.Handle(tt.msg("30")); err != nil {
				t.Fatal(err)
			}
			if got := b.Last(); got != "Ann is 30" {
				t.Fatalf("the answer got %q: the conversation moved other than once", got)
			}
		})
	}
}

// saysOn is what the bot sends while it handles u, which it must.
func saysOn(t *testing.T, b *convBot, u *models.Update) []string {
	t.Helper()
	n := len(b.Replies())
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	return b.Replies()[n:]
}
