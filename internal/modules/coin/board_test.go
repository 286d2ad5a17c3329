package coin

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// say is name (user id) saying text in chat.
func say(t *testing.T, b *apptest.Bot, chat, user int64, name, text string) {
	t.Helper()
	u := telegramtest.Text(chat, user, text)
	u.Message.From.FirstName = name
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
}

func lastEdit(b *apptest.Bot) string {
	e := b.Srv.Calls("editMessageText")
	if len(e) == 0 {
		return ""
	}
	return e[len(e)-1].Params["text"]
}

// A group's board over 20 members shows the top 10 and the asker's own
// line, prices each symbol once however many hold it, pages with a button
// and turns to the 7-day change with another.
func TestTheGroupBoard(t *testing.T) {
	b, f, clk := setup(t)
	const members = 23
	for i := int64(1); i <= members; i++ {
		user := 1000 + i
		if i == 15 {
			user = apptest.User
		}
		name := fmt.Sprintf("Trader%02d", i)
		say(t, b, apptest.Group, user, name, fmt.Sprintf("/coin_topup %d", 100*(members+1-i))) // Trader01 the richest
		say(t, b, apptest.Group, user, name, "/coin_buy BTC 10")
		say(t, b, apptest.Group, user, name, "/coin_buy ETH 30")
	}
	say(t, b, apptest.PrivateChat, 4242, "Loner", "/coin_topup 100000") // no trade in the group: not on its board
	clk.Add(10 * priceFresh)                                            // no cached price
	before := f.total()
	b.MustSay(apptest.Group, apptest.User, "/coin_top")
	if calls := f.total() - before; calls != 2 {
		t.Fatalf("%d price calls for a board of %d members holding BTC and ETH; want one per symbol", calls, members)
	}
	text := b.Last()
	lines := strings.Split(text, "\n")
	if lines[0] != "🏆 This group's coin board, by value: 23 members" {
		t.Fatalf("title %q", lines[0])
	}
	if len(lines) != 1+10+2 || !strings.HasPrefix(lines[1], "1. Trader01: $2,300.00") || lines[11] != "…" ||
		!strings.HasPrefix(lines[12], "👉 15. Trader15: $900.00 (7d: new)") || strings.Contains(text, "Loner") {
		t.Fatalf("board over 20 members: want the top 10, then the asker's line:\n%s", text)
	}
	if got := b.Buttons(apptest.Group); got != "[📊 By 7-day change]\n[Next ▶]" {
		t.Fatalf("buttons %s", got)
	}
	if _, err := b.Press(apptest.Group, apptest.User, "Next ▶"); err != nil {
		t.Fatal(err)
	}
	page := strings.Split(lastEdit(b), "\n")
	if len(page) != 11 || !strings.HasPrefix(page[1], "11. Trader11") || !strings.HasPrefix(page[5], "👉 15. Trader15") {
		t.Fatalf("page 2: want ranks 11 to 20, the asker among them:\n%s", strings.Join(page, "\n"))
	}
	if got := b.Buttons(apptest.Group); got != "[📊 By 7-day change]\n[◀ Previous] [Next ▶]" {
		t.Fatalf("page 2's buttons %s", got)
	}
	if _, err := b.Press(apptest.Group, 1001, "📊 By 7-day change"); err != nil {
		t.Fatal(err)
	}
	if got := lastEdit(b); !strings.HasPrefix(got, "🏆 This group's coin board, by 7-day change: 23 members\n👉 1. Trader01") {
		t.Fatalf("by change, pressed by Trader01:\n%s", got)
	}
}

// A private chat's board is of those who opted in, with the asker's own
// rank among them shown to them alone; a button joins it.
func TestThePrivateBoardIsOptIn(t *testing.T) {
	b, _, _ := setup(t)
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_top", "No coin portfolio yet. Start with /coin_topup 1000.")
	say(t, b, 7, 7, "Alice", "/coin_topup 5000")
	say(t, b, 7, 7, "Alice", "/coin_top join")
	if got := b.Last(); got != "You are on the coin board: anyone's /coin_top in a private chat shows your name, value and 7-day change. /coin_top leave takes you off." {
		t.Fatalf("join: %q", got)
	}
	say(t, b, 8, 8, "Bob", "/coin_topup 9000") // never joins
	b.Expect(9, 9, "/coin_top", "🏆 The opted-in coin board, by value: 1 member\n1. Alice: $5,000.00 (7d: new)\n"+
		"No coin portfolio yet. Start with /coin_topup 1000.")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	// Not on the board, the asker is not counted nor ranked among its
	// members: their line, where they would be, is theirs alone.
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_top", "🏆 The opted-in coin board, by value: 1 member\n"+
		"1. Alice: $5,000.00 (7d: new)\n👉 You would be 2nd: $1,000.00 (7d: new)\n"+
		"You are not on this board (only you see your line): /coin_top join puts you on it.")
	if _, err := b.Press(apptest.PrivateChat, apptest.User, "✅ Join the board"); err != nil {
		t.Fatal(err)
	}
	if got := lastEdit(b); got != "🏆 The opted-in coin board, by value: 2 members\n1. Alice: $5,000.00 (7d: new)\n👉 2. User: $1,000.00 (7d: new)" {
		t.Fatalf("after joining:\n%s", got)
	}
	b.Expect(8, 8, "/coin_top", "🏆 The opted-in coin board, by value: 2 members\n"+
		"1. Alice: $5,000.00 (7d: new)\n2. User: $1,000.00 (7d: new)\n👉 You would be 1st: $9,000.00 (7d: new)\n"+
		"You are not on this board (only you see your line): /coin_top join puts you on it.")
	b.Expect(7, 7, "/coin_top leave", "You are off the coin board private chats show (a group's board still shows who traded there).")
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_top leave", "You are off the coin board private chats show (a group's board still shows who traded there).")
	b.Expect(8, 8, "/coin_top", "🏆 The opted-in coin board, by value: no one yet\n"+
		"👉 You would be 1st: $9,000.00 (7d: new)\n"+
		"You are not on this board (only you see your line): /coin_top join puts you on it.")
	b.Expect(apptest.Group, apptest.User, "/coin_top", "No one has traded coin in this group yet: a /coin_buy here puts you on its board.")
	b.Expect(apptest.Group, apptest.User, "/coin_top everyone", "Usage: /coin_top, or /coin_top join to be on the board private chats show (/coin_top leave to leave it).")
}

// A group upgraded to a supergroup keeps its board.
func TestTheBoardMovesWithTheChat(t *testing.T) {
	b, _, _ := setup(t)
	const old, moved int64 = -55, -1005500
	say(t, b, old, apptest.User, "Carol", "/coin_topup 700")
	for _, u := range []*models.Update{
		{Message: &models.Message{ID: 1, Chat: models.Chat{ID: old, Type: models.ChatTypeGroup}, MigrateToChatID: moved}},
		{Message: &models.Message{ID: 2, Chat: models.Chat{ID: moved, Type: models.ChatTypeSupergroup}, MigrateFromChatID: old}},
	} {
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
	}
	b.Expect(moved, apptest.User, "/coin_top", "🏆 This group's coin board, by value: 1 member\n👉 1. Carol: $700.00 (7d: new)")
}

// A member who leaves a group, or is removed from it, leaves its board, and
// the Mini App no longer shows them that board; the other groups they
// traded in keep them. Telegram says so with a service message any bot in
// the group gets (the recorded updates, delivered twice: handled once).
func TestAMemberWhoLeftTheGroupLeavesItsBoard(t *testing.T) {
	tests := []struct {
		update     string
		chat, user int64
	}{
		{"update_left_chat_member_removed_supergroup.json", -1001283156137, 256676752},
		{"update_left_chat_member_left_supergroup.json", -1001043020159, 216024544},
		{"update_left_chat_member_left_group.json", -4030233224, 5815704115},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.update, ".json"), func(t *testing.T) {
			b, _, _ := setup(t)
			say(t, b, tt.chat, tt.user, "Leaver", "/coin_topup 500")
			say(t, b, tt.chat, 77, "Stayer", "/coin_topup 300")
			say(t, b, apptest.Group, tt.user, "Leaver", "/coin_buy BTC 10") // another group of theirs
			board := webRoute(t, b, "board")
			if _, err := board.Handler(t.Context(), &app.WebRequest{UserID: tt.user, Query: url.Values{"chat": {fmt.Sprint(tt.chat)}}}); err != nil {
				t.Fatalf("a member's Mini App board: %v", err)
			}
			u, _, err := telegram.DecodeUpdate(telegramtest.Recorded(t, tt.update))
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if err := b.Handle(u); err != nil {
					t.Fatal(err)
				}
			}
			b.Expect(tt.chat, 77, "/coin_top", "🏆 This group's coin board, by value: 1 member\n👉 1. Stayer: $300.00 (7d: new)")
			if _, err := board.Handler(t.Context(), &app.WebRequest{UserID: tt.user, Query: url.Values{"chat": {fmt.Sprint(tt.chat)}}}); !errors.Is(err, app.ErrWebForbidden) {
				t.Fatalf("the Mini App board of a group they left: %v, want %v", err, app.ErrWebForbidden)
			}
			b.Expect(apptest.Group, tt.user, "/coin_top", "🏆 This group's coin board, by value: 1 member\n👉 1. Leaver: $500.00 (7d: new)")
		})
	}
}

// webRoute is the coin module's Mini App route name.
func webRoute(t *testing.T, b *apptest.Bot, name string) app.WebRoute {
	t.Helper()
	for _, r := range b.App.Registry().WebRoutes() {
		if r.Module == "coin" && r.Name == name {
			return r.WebRoute
		}
	}
	t.Fatalf("no coin route %q", name)
	return app.WebRoute{}
}

// Where Telegram sent no service message (a large supergroup), the Mini
// App asks Telegram whether a member of a board is still in the group
// when they open it: one who left is refused it and leaves the board.
func TestAMemberWhoLeftUnheardLosesTheBoardAtTheirNextLook(t *testing.T) {
	b, _, _ := setup(t)
	say(t, b, apptest.Group, 501, "Leaver", "/coin_topup 500")
	say(t, b, apptest.Group, 77, "Stayer", "/coin_topup 300")
	board := webRoute(t, b, "board")
	look := func(user int64) error {
		_, err := board.Handler(t.Context(), &app.WebRequest{UserID: user, Query: url.Values{"chat": {fmt.Sprint(apptest.Group)}}})
		return err
	}
	if err := look(501); err != nil {
		t.Fatalf("a member's Mini App board: %v", err)
	}
	b.Srv.Leave(apptest.Group, 501)
	if err := look(501); !errors.Is(err, app.ErrWebForbidden) {
		t.Fatalf("the Mini App board of a group they left: %v, want %v", err, app.ErrWebForbidden)
	}
	if err := look(77); err != nil {
		t.Fatalf("a member who stayed: %v", err)
	}
	b.Expect(apptest.Group, 77, "/coin_top", "🏆 This group's coin board, by value: 1 member\n👉 1. Stayer: $300.00 (7d: new)")
}
