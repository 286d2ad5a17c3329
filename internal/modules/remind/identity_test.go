package remind_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// anonymous is a recorded message of a group's anonymous admin, saying text.
func anonymous(t *testing.T, text string) (group int64, u *models.Update) {
	u = telegramtest.Saying(telegramtest.RecordedUpdate(t, "update_anonymous_admin_other_group.json"), text)
	return u.Message.Chat.ID, u
}

func TestAnAnonymousAdminsReminderNamesTheGroup(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	group, u := anonymous(t, "/remind 2m stand-up")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		minute(t, b, clk)
	}
	want := []string{fmt.Sprintf("%d/0: ⏰ Reminder for house of ultron sys.: stand-up", group)}
	if got := reminders(b); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("reminders %v, want %v", got, want)
	}
}

// An anonymous admin presses as their real user: the reminder their group
// set is theirs to cancel as an admin of that group, and no one else's.
func TestTheGroupsAdminCancelsTheReminderItsAnonymousAdminSet(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	group, u := anonymous(t, "/remind 2m stand-up")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	const member, admin = 1952138591, 5596148289
	b.Srv.SetChatAdmin(group, admin)
	if _, err := b.Press(group, member, "Cancel"); err != nil {
		t.Fatal(err)
	}
	if got := b.Toasts(); len(got) != 1 || !strings.HasPrefix(got[0], "Only whoever set this reminder") {
		t.Fatalf("a member's press answered %q, want a refusal", got)
	}
	if _, err := b.Press(group, admin, "Cancel"); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "Reminder cancelled: it will not be sent." {
		t.Fatalf("the admin's press said %q", got)
	}
	for range 3 {
		minute(t, b, clk)
	}
	if got := reminders(b); len(got) != 0 {
		t.Fatalf("a cancelled reminder came: %v", got)
	}
}

// Whether the presser administers the group is Telegram's answer: a
// failure to ask keeps the reminder and apologises (the press may be
// tried again); Telegram refusing the question is a no.
func TestAPressOnAGroupsReminderThatCannotAskKeepsIt(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	group, u := anonymous(t, "/remind 2m stand-up")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	const admin = 5596148289
	b.Srv.SetChatAdmin(group, admin)
	b.Srv.FailNext("getChatMember", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if _, err := b.Press(group, admin, "Cancel"); err != nil {
		t.Fatal(err)
	}
	b.Srv.FailNext("getChatMember", telegramtest.Failure{Code: 400, Description: "Bad Request: chat not found"})
	if _, err := b.Press(group, admin, "Cancel"); err != nil {
		t.Fatal(err)
	}
	want := []string{"Sorry, that did not work. Please try again.", "Only whoever set this reminder (or an admin) can cancel it."}
	if got := b.Toasts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("toasts %q, want %q", got, want)
	}
	for range 3 {
		minute(t, b, clk)
	}
	if got := reminders(b); len(got) != 1 {
		t.Fatalf("reminders %v, want the one set", got)
	}
}
