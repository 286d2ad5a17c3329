package remind_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const (
	askWhat = "What should I remind you of? (/cancel stops)"
	askWhen = "When? 10m, 2h, in 1 hour 30 minutes, at 19:30, at 7pm, tomorrow 8am, or on 31/01 at 9:00 (Vietnam time)."
)

func TestRemindAloneAsksWhatThenWhenAndSetsItOnce(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/remind", Want: askWhat},
		{Text: "stretch", Want: askWhen},
		{Text: "soon", Want: "I cannot read that time. Try 10m, 2h or 1h30m, in 10 minutes, at 19:30 or at 7pm, tomorrow at 8am, or on 31/01/2027 at 9:00 (Vietnam time)."},
	})
	for range 2 { // Telegram delivers the answer twice
		u := telegramtest.Text(apptest.PrivateChat, apptest.User, "10m")
		u.ID = 660001
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Last(); !strings.HasPrefix(got, "⏰ I will remind you") {
		t.Fatalf("got %q", got)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "more", "I only understand commands here: /help lists them.")
	clk.Add(11 * time.Minute)
	for range 2 {
		if _, err := b.App.Timers().Tick(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if got := reminders(b); len(got) != 1 || !strings.Contains(got[0], "stretch") {
		t.Fatalf("reminders %q, want one", got)
	}
}

func TestRemindAloneInAGroupAsksWithAForcedReply(t *testing.T) {
	b, _ := apptest.NewModule(t, remind.Factory, nil)
	b.Expect(apptest.Group, apptest.User, "/remind", askWhat)
	if m := b.Srv.Messages(); !strings.Contains(m[len(m)-1].ReplyMarkup, `"force_reply":true`) {
		t.Fatalf("markup %q, want a forced reply", m[len(m)-1].ReplyMarkup)
	}
	u := telegramtest.Text(apptest.Group, apptest.User, "tea")
	u.Message.ReplyToMessage = &models.Message{ID: 1, Chat: u.Message.Chat, From: &models.User{ID: 99, IsBot: true, Username: "miti99bot"}}
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != askWhen {
		t.Fatalf("got %q", got)
	}
	b.Expect(apptest.Group, apptest.User, "/cancel", "Cancelled.")
}
