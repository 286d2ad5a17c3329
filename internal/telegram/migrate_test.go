package telegram_test

import (
	"errors"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestASendToAnUpgradedGroupGoesToTheSupergroupOnce(t *testing.T) {
	// Telegram has worded the answer differently over the years; the
	// parameter decides, whatever the wording.
	tests := []struct{ recorded string }{
		{"answer_group_upgraded.json"},
		{"answer_group_migrated.json"},
	}
	for _, tt := range tests {
		t.Run(tt.recorded, func(t *testing.T) {
			srv := telegramtest.New(t)
			f := telegramtest.RecordedFailure(t, tt.recorded)
			const old = -4518810793
			srv.FailChat(old, f)
			c, _ := newClient(t, srv)

			msg, err := c.Send(t.Context(), app.Message{ChatID: old, Text: "daily push"})
			if err != nil {
				t.Fatalf("Send = %v; the resend to the supergroup should have gone", err)
			}
			if msg.Chat.ID != f.MigrateTo {
				t.Fatalf("the message returned is in chat %d, want the supergroup %d", msg.Chat.ID, f.MigrateTo)
			}
			sent := srv.Messages()
			if len(sent) != 2 || sent[0].ChatID != old || sent[1].ChatID != f.MigrateTo || sent[1].Text != "daily push" {
				t.Fatalf("Telegram saw %+v, want the send to the old id, then the same text to the new one", sent)
			}
		})
	}
}

func TestAResendThatFailsTooSaysWhereTheChatWentAndWhy(t *testing.T) {
	const old, moved = -4518810793, -1002471352452
	tests := []struct {
		name      string
		resend    telegramtest.Failure
		class     error
		permanent bool
	}{
		{"the bot is not in the supergroup", telegramtest.RecordedFailure(t, "answer_not_member_supergroup.json"), app.ErrChatGone, true},
		{"the supergroup restricts the bot", telegramtest.RecordedFailure(t, "answer_no_rights_text.json"), app.ErrNoRights, true},
		{"a server error: the update is tried again", telegramtest.Failure{Code: 502, Description: "Bad Gateway"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			srv.Upgrade(old, moved)
			srv.FailChat(moved, tt.resend)
			c, _ := newClient(t, srv)

			_, err := c.Send(t.Context(), app.Message{ChatID: old, Text: "x"})
			var mig *app.ChatMigratedError
			if !errors.As(err, &mig) || mig.From != old || mig.To != moved || !errors.Is(err, app.ErrChatMigrated) {
				t.Fatalf("Send = %v, want a app.ChatMigratedError %d -> %d", err, int64(old), int64(moved))
			}
			if tt.class != nil && !errors.Is(err, tt.class) {
				t.Errorf("Send = %v, want the resend's class %v", err, tt.class)
			}
			if app.Permanent(err) != tt.permanent {
				t.Errorf("app.Permanent(%v) = %v, want %v", err, !tt.permanent, tt.permanent)
			}
			if n := len(srv.Messages()); n != 2 {
				t.Errorf("%d sends; one resend, not more", n)
			}
		})
	}
}

func TestAnEditInAnUpgradedGroupIsNotResentButSaysWhereTheChatWent(t *testing.T) {
	const old, moved = -4518810793, -1002471352452
	srv := telegramtest.New(t)
	srv.Upgrade(old, moved)
	c, _ := newClient(t, srv)

	err := c.Edit(t.Context(), app.Edit{ChatID: old, MessageID: 10, Text: "x"})
	var mig *app.ChatMigratedError
	if !errors.As(err, &mig) || mig.To != moved || mig.Resent != nil {
		t.Fatalf("Edit = %v, want a app.ChatMigratedError to %d, not resent", err, int64(moved))
	}
	if !app.Permanent(err) {
		t.Errorf("Edit = %v: the same edit is refused again, so it is permanent", err)
	}
	if n := len(srv.Calls("editMessageText")); n != 1 {
		t.Errorf("%d edits; a message of the old group has another id in the supergroup", n)
	}
}
