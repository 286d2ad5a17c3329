package remind_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// minute moves the clock a minute and runs the timers job as the cron
// would, by its slot.
func minute(t *testing.T, b *apptest.Bot, clk *apptest.Clock) {
	t.Helper()
	clk.Add(time.Minute)
	slot := clk.Now().Truncate(time.Minute)
	if _, err := b.Dispatcher(clk.Now).Dispatch(context.Background(), core.TimersJob, slot); err != nil {
		t.Fatal(err)
	}
}

// reminders are the reminders sent so far, as "chat/topic: text".
func reminders(b *apptest.Bot) []string {
	var out []string
	for _, m := range b.Srv.Messages() {
		if strings.HasPrefix(m.Text, "⏰ Reminder") {
			out = append(out, fmt.Sprintf("%d/%d: %s", m.ChatID, m.ThreadID, m.Text))
		}
	}
	return out
}

func TestAReminderComesBackOnceAtItsTime(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.Expect(apptest.Group, apptest.User, "/remind 2m stretch", "⏰ I will remind you at 19:02 (Vietnam time).")
	minute(t, b, clk)
	if got := reminders(b); len(got) != 0 {
		t.Fatalf("sent early: %v", got)
	}
	for range 3 {
		minute(t, b, clk)
	}
	want := []string{fmt.Sprintf("%d/0: ⏰ Reminder for @user: stretch", apptest.Group)}
	if got := reminders(b); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("reminders %v, want %v", got, want)
	}
}

func TestInAForumTopicTheReminderReturnsToTheTopic(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	if err := b.Handle(telegramtest.InTopic(telegramtest.Text(apptest.Group, apptest.User, "/remind 1m tea"), 42)); err != nil {
		t.Fatal(err)
	}
	minute(t, b, clk)
	minute(t, b, clk)
	if got := reminders(b); len(got) != 1 || !strings.HasPrefix(got[0], fmt.Sprintf("%d/42: ", apptest.Group)) {
		t.Fatalf("reminders %v, want one in topic 42", got)
	}
}

func TestBadInputGetsAClearMessage(t *testing.T) {
	b, _ := apptest.NewModule(t, remind.Factory, nil)
	b.Converse(apptest.Group, apptest.User, []apptest.Step{
		{Text: "/remind 10m", Want: "What should I remind you of? Add the text after the time: /remind 10m stretch."},
		{Text: "/remind soon hi", Want: "I cannot read that time. Try 10m, 2h or 1h30m, in 10 minutes, at 19:30 or at 7pm, tomorrow at 8am, or on 31/01/2027 at 9:00 (Vietnam time)."},
		{Text: "/remind at 2020-01-01 09:00 hi", Want: "That time has already passed."},
		{Text: "/remind 400d hi", Want: "That is too far ahead: I keep reminders for 366 days at most (366d, or a date within that)."},
		{Text: "/remind 1h " + strings.Repeat("x", 1001), Want: "That reminder is too long: keep it to 1000 characters."},
	})
}

func TestAUserKeepsAtMostFiftyPending(t *testing.T) {
	b, _ := apptest.NewModule(t, remind.Factory, nil)
	for i := range 50 {
		// Days away and long texts: the longest lines the list writes.
		b.MustSay(apptest.Group, apptest.User, fmt.Sprintf("/remind %dd r%d %s", i+1, i, strings.Repeat("ễ", 990)))
	}
	b.Expect(apptest.Group, apptest.User, "/remind 1h one more",
		"You have 50 reminders pending, the most I keep: cancel one with /remind_list first.")
	// All fifty list in one message Telegram takes, with a Cancel each.
	b.MustSay(apptest.Group, apptest.User, "/remind_list")
	if text := b.Last(); len([]rune(text)) > 4096 || !strings.Contains(text, "50. ") {
		t.Fatalf("the list of 50 (%d characters): %q", len([]rune(text)), text)
	}
	if got := strings.Count(b.Buttons(apptest.Group), "[Cancel "); got != 50 {
		t.Fatalf("%d Cancel buttons, want 50", got)
	}
}

func TestListShowsTheCallersRemindersHereWithACancelEach(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.MustSay(apptest.Group, apptest.User, "/remind 2h second")
	b.MustSay(apptest.Group, apptest.User, "/remind 1h first")
	b.MustSay(apptest.Group, apptest.Admin, "/remind 1h not mine")
	b.MustSay(apptest.PrivateChat, apptest.User, "/remind 1h elsewhere")
	b.Expect(apptest.Group, apptest.User, "/remind_list",
		"Your pending reminders here (Vietnam time):\n1. 20:00: first\n2. 21:00: second\n")
	if got := b.Buttons(apptest.Group); got != "[Cancel 1] [Cancel 2]" {
		t.Fatalf("buttons %q", got)
	}
	if _, err := b.Press(apptest.Group, apptest.User, "Cancel 1"); err != nil {
		t.Fatal(err)
	}
	if b.Last() != "Reminder cancelled: it will not be sent." {
		t.Fatalf("after Cancel: %q", b.Last())
	}
	clk.Add(3 * time.Hour)
	minute(t, b, clk)
	got := strings.Join(reminders(b), "\n")
	if strings.Contains(got, "first") || !strings.Contains(got, "second") {
		t.Fatalf("reminders after cancelling the first: %s", got)
	}
}

func TestOnlyTheAuthorOrAnAdminCancels(t *testing.T) {
	b, _ := apptest.NewModule(t, remind.Factory, nil)
	b.MustSay(apptest.Group, apptest.User, "/remind 1h mine")
	id, _, _ := b.Srv.Keyboard(apptest.Group)
	_, rows, _ := b.Srv.Keyboard(apptest.Group)
	data := rows[0][0].CallbackData
	if toast, _, err := b.PressData(apptest.Group, 77, id, data); err != nil || toast != "Only whoever set this reminder (or an admin) can cancel it." {
		t.Fatalf("a stranger's press: %q, %v", toast, err)
	}
	if _, _, err := b.PressData(apptest.Group, apptest.Admin, id, data); err != nil || b.Last() != "Reminder cancelled: it will not be sent." {
		t.Fatalf("the admin's press: %q, %v", b.Last(), err)
	}
}
