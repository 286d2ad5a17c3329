package core_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestRouting(t *testing.T) {
	tests := []struct {
		name string
		chat int64
		from int64
		text string
		want []string // replies, in order; nil = the bot stays silent
	}{
		{"a command gets its reply", private, user, "/ping", []string{"pong"}},
		{"a command addressed to this bot is handled", group, user, "/ping@miti99bot", []string{"pong"}},
		{"the mention is case-insensitive", group, user, "/ping@Miti99Bot", []string{"pong"}},
		{"a command addressed to another bot is ignored", group, user, "/ping@OtherBot", nil},
		{"arguments are split off and trimmed", private, user, "/echo   a  b ", []string{"args=a  b"}},
		{"arguments after a mention", group, user, "/echo@miti99bot x", []string{"args=x"}},
		{"arguments with astral-plane emoji", private, user, "/echo 😀 x", []string{"args=😀 x"}},
		{"a command not at the start is not a command", private, user, "hey /ping", []string{"I only understand commands here: /help lists them."}},
		{"plain text in a private chat gets a one-line hint", private, user, "hello", []string{"I only understand commands here: /help lists them."}},
		{"plain text in a group gets no reply", group, user, "hello", nil},
		{"an unknown command in a private chat gets a hint", private, user, "/nope", []string{"Unknown command. Send /help to see what I can do."}},
		{"an unknown command in a group gets nothing", group, user, "/nope", nil},
		{"a protected command is silent for users", private, user, "/info", nil},
		{"a protected command works for admins", group, admin, "/info", []string{"chat_id: -100\nthread_id: 0\nuser_id: 2"}},
		{"a private command is silent for admins", private, admin, "/secret", nil},
		{"a private command works for the owner", private, owner, "/secret", []string{"secret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			if err := h.say(tt.chat, tt.from, tt.text); err != nil {
				t.Fatalf("HandleUpdate: %v", err)
			}
			if got := h.replies(); !slices.Equal(got, tt.want) {
				t.Fatalf("replies = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTheBotsUsernameIsFetchedOnceWhenNotConfigured(t *testing.T) {
	h := newHarness(t, appWithoutUsername())
	for range 3 {
		if err := h.say(group, user, "/ping@miti99bot"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(h.srv.Calls("getMe")); n != 1 {
		t.Fatalf("getMe called %d times, want once", n)
	}
	if got := h.replies(); len(got) != 3 {
		t.Fatalf("replies = %q", got)
	}
	if n := len(newHarness(t).srv.Calls("getMe")); n != 0 {
		t.Fatalf("getMe called %d times at start-up; it must not be", n)
	}
}

func TestRepliesGoBackToTheForumTopic(t *testing.T) {
	h := newHarness(t)
	if err := h.handle(telegramtest.InTopic(telegramtest.Text(group, user, "/ping"), 42)); err != nil {
		t.Fatal(err)
	}
	// A reply thread in an ordinary group is not a topic: sending to it fails.
	u := telegramtest.Text(group, user, "/ping")
	u.Message.MessageThreadID = 99
	if err := h.handle(u); err != nil {
		t.Fatal(err)
	}
	msgs := h.srv.Messages()
	if len(msgs) != 2 || msgs[0].ThreadID != 42 || msgs[1].ThreadID != 0 {
		t.Fatalf("sent %+v, want topic 42 then no topic", msgs)
	}
}

func TestAPanickingHandlerApologisesAndHarmsNothingElse(t *testing.T) {
	h := newHarness(t)
	if err := h.say(private, user, "/boom"); err != nil {
		t.Fatalf("a panic must count as handled (retrying would panic again), got %v", err)
	}
	if err := h.say(private, user, "/ping"); err != nil {
		t.Fatal(err)
	}
	got := h.replies()
	if len(got) != 2 || !strings.HasPrefix(got[0], "Sorry") || got[1] != "pong" {
		t.Fatalf("replies = %q, want an apology then pong", got)
	}
	logs := h.logs.String()
	for _, want := range []string{`"module":"testmod"`, `"action":"/boom"`, "kaboom"} {
		if !strings.Contains(logs, want) {
			t.Errorf("panic log lacks %s:\n%s", want, logs)
		}
	}
}

func TestAFailedUpdateIsReportedAndHandledOnRedelivery(t *testing.T) {
	h := newHarness(t)
	h.store.SetDown(true)
	err := h.app.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), 500))
	if !errors.Is(err, storagetest.ErrDown) {
		t.Fatalf("HandleUpdate with the store down = %v, want the storage error", err)
	}
	if len(h.replies()) != 0 {
		t.Fatal("nothing may be sent for an update that failed before its handler ran")
	}
	h.store.SetDown(false)
	if err := h.app.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), 500)); err != nil {
		t.Fatalf("redelivery: %v", err)
	}
	if got := h.replies(); !slices.Equal(got, []string{"pong"}) {
		t.Fatalf("replies = %q", got)
	}
}

func TestRedeliveredUpdatesAreHandledOnce(t *testing.T) {
	h := newHarness(t)
	for range 3 {
		if err := h.app.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), 777)); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.app.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), 778)); err != nil {
		t.Fatal(err)
	}
	if got := h.replies(); len(got) != 2 {
		t.Fatalf("replies = %q, want one per distinct update_id", got)
	}
}

func TestAnUpdateThatKeepsFailingIsDroppedWithAnApology(t *testing.T) {
	h := newHarness(t)
	h.failing.Store(true)
	deliver := func() error {
		return h.app.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/fail"), 900))
	}
	for i := range 5 {
		if err := deliver(); !errors.Is(err, errFlaky) {
			t.Fatalf("delivery %d = %v, want the handler's error so the runtime retries", i+1, err)
		}
	}
	if err := deliver(); err != nil {
		t.Fatalf("delivery 6 = %v, want the update dropped (nil) so it stops blocking", err)
	}
	got := h.replies()
	if len(got) != 1 || !strings.HasPrefix(got[0], "Sorry") {
		t.Fatalf("replies = %q, want one apology", got)
	}
	h.failing.Store(false)
	if err := deliver(); err != nil || len(h.replies()) != 1 {
		t.Fatalf("a dropped update ran again: %v, %q", err, h.replies())
	}
}

func TestCallbacksAreRoutedByPrefix(t *testing.T) {
	h := newHarness(t)
	press := func(data string) {
		t.Helper()
		u := &models.Update{CallbackQuery: &models.CallbackQuery{
			ID: "q-" + data, From: models.User{ID: user}, Data: data,
			Message: models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage,
				Message: &models.Message{ID: 5, Chat: models.Chat{ID: private, Type: models.ChatTypePrivate}}},
		}}
		if err := h.handle(u); err != nil {
			t.Fatal(err)
		}
	}
	press("tm:yes")
	press("stale:button")
	if got := h.replies(); !slices.Equal(got, []string{"pressed tm:yes"}) {
		t.Fatalf("replies = %q", got)
	}
	answers := h.srv.Calls("answerCallbackQuery")
	if len(answers) != 2 {
		t.Fatalf("%d callback answers, want every press answered (routed or stale)", len(answers))
	}
}

func TestHelpHonoursVisibility(t *testing.T) {
	tests := []struct {
		from          int64
		want, wantNot []string
	}{
		{user, []string{"/ping", "/help"}, []string{"/info", "/mstats", "/secret"}},
		{admin, []string{"/ping", "/info", "/mstats"}, []string{"/secret"}},
		{owner, []string{"/ping", "/info", "/secret"}, nil},
	}
	for _, tt := range tests {
		h := newHarness(t)
		if err := h.say(private, tt.from, "/help"); err != nil {
			t.Fatal(err)
		}
		text := h.replies()[0]
		for _, w := range tt.want {
			if !strings.Contains(text, w+" ") {
				t.Errorf("help for %d lacks %s:\n%s", tt.from, w, text)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(text, w+" ") {
				t.Errorf("help for %d shows %s:\n%s", tt.from, w, text)
			}
		}
	}
}

func TestSyncCommandsPublishesThePublicCommands(t *testing.T) {
	h := newHarness(t)
	if err := h.app.SyncCommands(context.Background()); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range h.srv.Commands() {
		names = append(names, c.Command)
		if c.Description == "" {
			t.Errorf("/%s has no description", c.Command)
		}
	}
	want := []string{"start", "help", "language", "timezone", "ping", "echo", "boom", "fail"}
	if !slices.Equal(names, want) {
		t.Fatalf("menu = %q, want %q", names, want)
	}
}

// Telegram shows a Vietnamese user the Vietnamese menu, in private chats
// and groups alike: each command's description from its module's catalog.
func TestSyncCommandsPublishesAMenuPerLanguageAndForGroups(t *testing.T) {
	h := newHarness(t)
	if err := h.app.SyncCommands(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, scope := range []string{"default", "all_group_chats"} {
		for lang, want := range map[string]string{"": "List the commands you can use", "vi": "Xem các lệnh bạn dùng được"} {
			menu := h.srv.CommandsFor(lang, scope)
			i := slices.IndexFunc(menu, func(c models.BotCommand) bool { return c.Command == "help" })
			if i < 0 || menu[i].Description != want {
				t.Errorf("the %s menu in %q: %+v, want /help as %q", scope, lang, menu, want)
			}
		}
	}
}
