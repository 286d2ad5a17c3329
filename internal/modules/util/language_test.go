package util_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// In a private chat the user's /language outranks their client's
// language_code, by a button or by name, and holds for what follows.
func TestAUsersOwnLanguageChoiceOutranksTheirClients(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.Speaks(apptest.User, "en-US")
	b.MustSay(apptest.PrivateChat, apptest.User, "/language")
	if got := b.Buttons(apptest.PrivateChat); !strings.Contains(got, "English") || !strings.Contains(got, "Tiếng Việt") {
		t.Fatalf("/language offers %s", got)
	}
	if _, err := b.Press(apptest.PrivateChat, apptest.User, "Tiếng Việt"); err != nil {
		t.Fatal(err)
	}
	edits := b.Srv.Edits()
	if len(edits) == 0 || edits[len(edits)-1].Text != "Từ giờ mình sẽ nói tiếng Việt trong cuộc trò chuyện này." {
		t.Fatalf("the pressed choice is told as %+v", edits)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/nosuchcommand", "Mình không biết lệnh này. Gửi /help để xem mình làm được gì.")
	b.Expect(apptest.PrivateChat, apptest.User, "/language en", "From now on I speak English in this chat.")
	b.Expect(apptest.PrivateChat, apptest.User, "/language fr", "I speak English (en) and Vietnamese (vi): /language en or /language vi.")
	b.Expect(apptest.PrivateChat, apptest.User, "/nosuchcommand", "Unknown command. Send /help to see what I can do.")
}

// A group speaks the language of who added the bot until its admins
// choose one; a member who is not an admin cannot; the choice moves with
// the group when it becomes a supergroup.
func TestAGroupSpeaksItsAdminsChoiceElseItsAddersLanguage(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	added := telegramtest.RecordedUpdate(t, "update_my_chat_member_added_group.json")
	added.MyChatMember.Chat.ID, added.MyChatMember.From.LanguageCode = apptest.Group, "vi"
	if err := b.Handle(added); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); !strings.HasPrefix(got, "Xin chào! Mình là miti99bot.") || !strings.Contains(got, "\n\nDanh sách lệnh\n") {
		t.Fatalf("the greeting of a group a Vietnamese user added: %q", got)
	}
	b.MustSay(apptest.Group, apptest.User, "/help")
	if got := b.Last(); !strings.Contains(got, "Danh sách lệnh: util</b>\n") {
		t.Fatalf("/help in that group: %q", got)
	}
	b.Expect(apptest.Group, apptest.User, "/language en", "Chỉ quản trị viên của nhóm mới đổi được ngôn ngữ của nhóm.")
	b.Srv.SetChatAdmin(apptest.Group, apptest.User)
	b.Expect(apptest.Group, apptest.User, "/language en", "From now on I speak English in this chat.")
	b.MustSay(apptest.Group, apptest.User, "/help")
	if got := b.Last(); !strings.Contains(got, "Commands: util</b>\n") {
		t.Fatalf("/help after the admin chose English: %q", got)
	}
	b.Expect(apptest.Group, apptest.User, "/language vi", "Từ giờ mình sẽ nói tiếng Việt trong cuộc trò chuyện này.")
	const super = -1009
	if err := b.App.ChatChanged(t.Context(), app.ChatChange{ChatID: apptest.Group, MovedTo: super}); err != nil {
		t.Fatal(err)
	}
	b.MustSay(super, apptest.User, "/help")
	if got := b.Last(); !strings.Contains(got, "Danh sách lệnh: util</b>\n") {
		t.Fatalf("/help in the supergroup the group became: %q", got)
	}
}
