package stats_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestStatsReplies(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	say := func(userID int64, username, text string) {
		t.Helper()
		u := telegramtest.Text(apptest.Group, userID, text)
		u.Message.From.Username = username
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		say(10, "alice", "/ping")
	}
	say(11, "bob", "/ping")
	say(11, "bob", "/help")
	say(12, "", "/help@miti99bot")
	say(11, "bob", "/nope") // not a command of this bot: not counted

	tests := []struct{ text, want string }{
		{"/stats", "Top commands:\n1. /ping: 4\n2. /help: 2\n\nTop users:\n1. @alice (10): 3\n2. @bob (11): 2\n3. 12: 1"},
		{"/stats users", "Top users:\n1. @alice (10): 3\n2. @bob (11): 2\n3. 12: 1\n4. @user (2): 1"},
		{"/stats user bob", "@bob (11): 2 commands\n/help: 1\n/ping: 1"},
		{"/stats user @ALICE", "@alice (10): 3 commands\n/ping: 3"},
		{"/stats user 12", "12: 1 commands\n/help: 1"},
		{"/stats user nobody", "No such user: \"nobody\""},
		{"/stats cmd no/such", "No such command: \"no/such\"."},
		{"/stats cmd " + strings.Repeat("x", 2000), "No such command: \"" + strings.Repeat("x", 32) + "\"…."},
		{"/stats cmd /ping", "/ping: 4 uses\n1. @alice (10): 3\n2. @bob (11): 1"},
		{"/stats cmd mstats", "/mstats has not been used."},
		{"/stats what", "Usage: /stats, /stats users, /stats user <name|id>, /stats cmd <name>"},
	}
	for _, tt := range tests {
		// The admin's own /stats calls are counted too: the first one
		// makes "@user (2)" appear from the second reply on.
		u := telegramtest.Text(apptest.Group, apptest.Admin, tt.text)
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
		if got := b.Last(); got != tt.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tt.text, got, tt.want)
		}
	}
}

func TestStatsIsHiddenFromUsers(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.MustSay(apptest.PrivateChat, apptest.User, "/stats")
	if len(b.Replies()) != 0 {
		t.Fatalf("a user saw %q", b.Replies())
	}
}

// A Vietnamese admin reads /stats in Vietnamese; the numbers and names
// are the same as in English.
func TestAVietnameseAdminReadsStatsInVietnamese(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.Speaks(apptest.Admin, "vi")
	b.Expect(apptest.PrivateChat, apptest.Admin, "/stats cmd ping", "Chưa ai dùng /ping.")
	for _, tt := range []struct{ text, want string }{
		{"/stats", "Lệnh dùng nhiều nhất:\n1. /stats: 1\n\nNgười dùng lệnh nhiều nhất:\n1. @user (2): 1"},
		{"/stats user 2", "@user (2): 2 lệnh\n/stats: 2"},
		{"/stats user nobody", "Không có người dùng \"nobody\""},
		{"/stats cmd stats", "/stats: 4 lượt dùng\n1. @user (2): 4"},
		{"/stats cmd nope", "Không có lệnh \"nope\"."},
		{"/stats what", "Cách dùng: /stats, /stats users, /stats user <tên|id>, /stats cmd <tên>"},
	} {
		b.MustSay(apptest.PrivateChat, apptest.Admin, tt.text)
		if got := b.Last(); got != tt.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tt.text, got, tt.want)
		}
	}
}
