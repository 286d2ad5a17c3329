package coin

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Every anonymous admin arrives as one placeholder user: each group's
// must still trade their own group's cash, never another group's.
func TestTwoGroupsAnonymousAdminsKeepSeparatePortfolios(t *testing.T) {
	b, _, _ := setup(t)
	say := func(recorded, text, want string) {
		t.Helper()
		if err := b.Handle(telegramtest.Saying(telegramtest.RecordedUpdate(t, recorded), text)); err != nil {
			t.Fatal(err)
		}
		if got := b.Last(); got != want {
			t.Fatalf("%s in %s: %q, want %q", text, recorded, got, want)
		}
	}
	say("update_anonymous_admin.json", "/coin_topup 1000", "Topped up $1,000.00. Cash: $1,000.00.")
	say("update_anonymous_admin_other_group.json", "/coin_buy BTC 100", "Not done: not enough cash: 100.00 needed, 0.00 available.")
}

// A group's anonymous admins trade as the group: its board names the
// group, not the placeholder user.
func TestAGroupsBoardNamesItsAnonymousAdminsAsTheGroup(t *testing.T) {
	b, _, _ := setup(t)
	u := telegramtest.Saying(telegramtest.RecordedUpdate(t, "update_anonymous_admin_other_group.json"), "/coin_topup 700")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	u = telegramtest.Saying(telegramtest.RecordedUpdate(t, "update_anonymous_admin_other_group.json"), "/coin_top")
	u.ID = 0
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got, want := b.Last(), "🏆 This group's coin board, by value: 1 member\n👉 1. house of ultron sys.: $700.00 (7d: new)"; got != want {
		t.Fatalf("board %q\nwant  %q", got, want)
	}
}

// A group's anonymous admins press as their real users: every button made
// for the group (an alert's Cancel, the stats' buttons) is an admin of the
// group's to press, and no other member's.
func TestTheGroupsAdminPressesWhatItsAnonymousAdminMade(t *testing.T) {
	b, _, _ := setup(t)
	u := telegramtest.Saying(telegramtest.RecordedUpdate(t, "update_anonymous_admin_other_group.json"), "/coin_alert BTC above 70000")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	group := u.Message.Chat.ID
	u = telegramtest.Saying(telegramtest.RecordedUpdate(t, "update_anonymous_admin_other_group.json"), "/coin_alerts")
	u.ID++
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	id, rows, _ := b.Srv.Keyboard(group)
	if len(rows) == 0 {
		t.Fatal("the alerts list has no Cancel button")
	}
	data := rows[0][0].CallbackData
	const member, admin = 1952138591, 5596148289
	b.Srv.SetChatAdmin(group, admin)
	if toast, _, err := b.PressData(group, member, id, data); err != nil || toast != "This is someone else's alert: yours are in /coin_alerts." {
		t.Fatalf("a member's press: %q, %v", toast, err)
	}
	if toast, _, err := b.PressData(group, admin, id, data); err != nil || !strings.HasPrefix(toast, "Cancelled: ") {
		t.Fatalf("the group's admin's press: %q, %v", toast, err)
	}
}
