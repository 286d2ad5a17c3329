package telegram_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestDecodeUpdateKeepsWhatItCanReadAndNamesTheRest(t *testing.T) {
	recorded := func(name string) string { return string(telegramtest.Recorded(t, name)) }
	tests := []struct {
		name        string
		raw         string
		wantID      int64
		wantIgnored []string
		check       func(u *models.Update) bool
	}{
		{"a recorded update decodes whole", recorded("update_group_text.json"), 900001, nil,
			func(u *models.Update) bool { return u.Message.Text == "/ping" }},
		{"a forward of an unknown origin keeps its command", recorded("update_forward_unknown_origin.json"), 900002,
			[]string{"message.forward_origin"},
			func(u *models.Update) bool {
				m := u.Message
				return m.Text == "/ping secret forwarded words" && len(m.Entities) == 1 && m.Chat.ID == -1001234567890 && m.ForwardOrigin == nil
			}},
		{"a press on a reply to such a forward keeps its data and message", recorded("update_callback_reply_unknown_origin.json"), 900004,
			[]string{"callback_query.message.reply_to_message.forward_origin"},
			func(u *models.Update) bool {
				q := u.CallbackQuery
				m := q.Message.Message
				return q.Data == "nope:1" && q.From.ID == 3 && q.Message.Type == models.MaybeInaccessibleMessageTypeMessage &&
					m.ID == 8 && m.Chat.ID == -1001234567890 && m.ReplyToMessage.Text == "/ping secret forwarded words"
			}},
		{"a member update with an unknown old status keeps the new one", recorded("update_my_chat_member_unknown_old_status.json"), 810000002,
			[]string{"my_chat_member.old_chat_member"},
			func(u *models.Update) bool {
				cm := u.MyChatMember
				return cm.NewChatMember.Type == models.ChatMemberTypeBanned && cm.OldChatMember.Type == "" && cm.Chat.ID == -1002352533321
			}},
		{"a list keeps the items that decode", `{"update_id":5,"message":{"message_id":1,"chat":{"id":7,"type":"private"},"text":"/ping","entities":[{"type":"bot_command","offset":0,"length":5},7]}}`, 5,
			[]string{"message.entities[1]"},
			func(u *models.Update) bool { return len(u.Message.Entities) == 1 && u.Message.Entities[0].Length == 5 }},
		{"a message without a readable chat is left out whole", `{"update_id":6,"message":{"message_id":1,"chat":"x","text":"/ping"}}`, 6,
			[]string{"message.chat", "message"},
			func(u *models.Update) bool { return u.Message == nil }},
		{"a kind that is not an object leaves only the id", `{"update_id":7,"message":"x"}`, 7,
			[]string{"message"},
			func(u *models.Update) bool { return *u == models.Update{ID: 7} }},
		{"a log line names the first 16 parts and counts the rest",
			`{"update_id":9,"message":{"message_id":1,"chat":{"id":7,"type":"private"},"entities":[` + strings.Repeat(`1,`, 19) + `1]}}`, 9,
			append(entities(16), "and 4 more"),
			func(u *models.Update) bool { return len(u.Message.Entities) == 0 }},
		{"a path names the library's field, never the body's spelling", `{"update_id":8,"MESSAGE":"x"}`, 8,
			[]string{"message"},
			func(u *models.Update) bool { return u.Message == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, ignored, err := telegram.DecodeUpdate([]byte(tt.raw))
			if err != nil {
				t.Fatalf("err = %v, want the update", err)
			}
			if u.ID != tt.wantID || !slices.Equal(ignored, tt.wantIgnored) {
				t.Fatalf("id %d, ignored %q; want %d, %q", u.ID, ignored, tt.wantID, tt.wantIgnored)
			}
			if !tt.check(u) {
				t.Fatalf("decoded %+v", u)
			}
		})
	}
}

// entities are the paths of a message's first n entities.
func entities(n int) []string {
	var paths []string
	for i := range n {
		paths = append(paths, "message.entities["+strconv.Itoa(i)+"]")
	}
	return paths
}

func TestDecodeUpdateRefusesABodyWithoutAnUpdateID(t *testing.T) {
	for name, raw := range map[string]string{
		"no update_id":              `{"message":{"text":"x"}}`,
		"an update_id not a number": `{"update_id":"x","message":{"text":"x"}}`,
		"not JSON":                  `{"update_id":`,
		"not an object":             `[1]`,
	} {
		t.Run(name, func(t *testing.T) {
			if u, ignored, err := telegram.DecodeUpdate([]byte(raw)); err == nil || u != nil || ignored != nil {
				t.Fatalf("= %+v, %q, %v; want no update and an error", u, ignored, err)
			}
		})
	}
}
