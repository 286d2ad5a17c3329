package util_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestStartGreetsWithTheCommandList(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.MustSay(apptest.PrivateChat, apptest.User, "/start")
	got := b.Last()
	if !strings.HasPrefix(got, "Hi! I am miti99bot.") || !strings.Contains(got, "/ping - Check that the bot is alive") {
		t.Fatalf("/start = %q", got)
	}
	if strings.Contains(got, "/info") {
		t.Fatalf("/start shows a protected command to a user: %q", got)
	}
}

func TestInfoShowsTheIdsOfATopicMessage(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	if err := b.Handle(telegramtest.InTopic(telegramtest.Text(apptest.Group, apptest.Owner, "/info"), 12)); err != nil {
		t.Fatal(err)
	}
	if got, want := b.Last(), "chat_id: -100\nthread_id: 12\nuser_id: 1"; got != want {
		t.Fatalf("/info = %q, want %q", got, want)
	}
}
