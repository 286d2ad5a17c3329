package coin

import (
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
