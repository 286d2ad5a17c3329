package telegram_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestAnUpdateNewerThanTheLibraryIsDecodedInPartAndLoggedWithoutContent(t *testing.T) {
	srv := telegramtest.New(t)
	logs := &testenv.Buffer{}
	c, _ := newClient(t, srv, telegram.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	srv.PushRaw(t,
		telegramtest.Recorded(t, "update_group_text.json"),
		telegramtest.Recorded(t, "update_forward_unknown_origin.json"),
		telegramtest.Recorded(t, "update_group_text_after.json"))

	got, err := c.GetUpdates(t.Context(), 0, 0)
	if err != nil {
		t.Fatalf("GetUpdates = %v; one newer update must not fail the batch", err)
	}
	if len(got) != 3 || got[0].Message == nil || got[2].Message == nil || got[2].Message.Text != "/ping" {
		t.Fatalf("GetUpdates = %+v, want all three", got)
	}
	if fwd := got[1].Message; got[1].ID != 900002 || fwd == nil || fwd.Text != "/ping secret forwarded words" || fwd.ForwardOrigin != nil {
		t.Fatalf("the forward = %+v, want its command without the origin the library cannot read", got[1])
	}
	line := logs.String()
	if strings.Count(line, "update decoded in part") != 1 || !strings.Contains(line, `"update_id":900002`) ||
		!strings.Contains(line, `"ignored":["message.forward_origin"]`) {
		t.Fatalf("want one line naming the update and the part left out: %s", line)
	}
	if strings.Contains(line, "secret forwarded words") || strings.Contains(line, "future_origin") {
		t.Fatalf("the log carries the update's content: %s", line)
	}
}

func TestTheRecordedLifecycleUpdatesDecode(t *testing.T) {
	tests := []struct {
		recorded string
		check    func(u *models.Update) bool
	}{
		{"update_callback_inaccessible.json", func(u *models.Update) bool {
			m := u.CallbackQuery.Message
			return m.Type == models.MaybeInaccessibleMessageTypeInaccessibleMessage &&
				m.InaccessibleMessage.Chat.ID == 238051153 && m.InaccessibleMessage.MessageID == 875400 && m.InaccessibleMessage.Date == 0
		}},
		{"update_callback_inline.json", func(u *models.Update) bool {
			q := u.CallbackQuery
			return q.InlineMessageID == "BAAAACAAAAB9J6um0irmoyJeMuk" && q.Message.Message == nil && q.Message.InaccessibleMessage == nil
		}},
		{"update_migrate_to_chat_id.json", func(u *models.Update) bool {
			return u.Message.Chat.ID == -4518810793 && u.Message.MigrateToChatID == -1002471352452
		}},
		{"update_migrate_from_chat_id.json", func(u *models.Update) bool {
			return u.Message.Chat.ID == -1002471352452 && u.Message.MigrateFromChatID == -4518810793
		}},
		{"update_my_chat_member_added_group.json", func(u *models.Update) bool {
			return u.MyChatMember.OldChatMember.Type == models.ChatMemberTypeLeft && u.MyChatMember.NewChatMember.Type == models.ChatMemberTypeMember
		}},
		{"update_my_chat_member_promoted_group.json", func(u *models.Update) bool {
			return u.MyChatMember.NewChatMember.Type == models.ChatMemberTypeAdministrator
		}},
		{"update_my_chat_member_kicked_supergroup.json", func(u *models.Update) bool {
			return u.MyChatMember.Chat.Type == models.ChatTypeSupergroup && u.MyChatMember.NewChatMember.Type == models.ChatMemberTypeBanned
		}},
		{"update_my_chat_member_blocked_private.json", func(u *models.Update) bool {
			return u.MyChatMember.Chat.Type == models.ChatTypePrivate && u.MyChatMember.NewChatMember.Type == models.ChatMemberTypeBanned
		}},
	}
	for _, tt := range tests {
		t.Run(tt.recorded, func(t *testing.T) {
			srv := telegramtest.New(t)
			srv.PushRaw(t, telegramtest.Recorded(t, tt.recorded))
			c, _ := newClient(t, srv)
			got, err := c.GetUpdates(t.Context(), 0, 0)
			if err != nil || len(got) != 1 {
				t.Fatalf("GetUpdates = %v, %v", got, err)
			}
			if !tt.check(got[0]) {
				t.Fatalf("decoded as %+v", got[0])
			}
		})
	}
}
