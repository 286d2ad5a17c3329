package remind_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/modules/util"
)

// In a chat that chose another clock (/timezone), a typed time is that
// clock's, and the confirmation, the list and the questions say it; the
// reminder comes at that moment.
func TestAReminderIsSetAndShownOnTheChatsClock(t *testing.T) {
	clk := apptest.NewClock(apptest.T0) // 13:00 in Berlin
	b := apptest.New(t, []app.Factory{util.Factory, remind.Factory}, core.WithClock(clk.Now))
	b.Speaks(apptest.User, "en")
	b.MustSay(apptest.PrivateChat, apptest.User, "/timezone Europe/Berlin")
	b.Expect(apptest.PrivateChat, apptest.User, "/remind at 13:05 tea", "⏰ I will remind you at 13:05 (Europe/Berlin).")
	b.MustSay(apptest.PrivateChat, apptest.User, "/remind_list")
	if got, want := b.Last(), "Your pending reminders here (Europe/Berlin):\n1. 13:05: tea"; got[:len(want)] != want {
		t.Fatalf("/remind_list = %q, want it to begin %q", got, want)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/remind at 25:00 tea", "I cannot read that time. Try 10m, 2h or 1h30m, in 10 minutes, at 19:30 or at 7pm, tomorrow at 8am, or on 31/01/2027 at 9:00 (Europe/Berlin).")
	for range 4 {
		minute(t, b, clk)
	}
	if got := reminders(b); len(got) != 0 {
		t.Fatalf("sent before 13:05 in Berlin: %v", got)
	}
	minute(t, b, clk)
	want := []string{fmt.Sprintf("%d/0: ⏰ Reminder for @user: tea", apptest.PrivateChat)}
	if got := reminders(b); fmt.Sprint(got) != fmt.Sprint(want) || !clk.Now().Equal(apptest.T0.Add(5*time.Minute)) {
		t.Fatalf("at %v reminders %v, want %v", clk.Now(), got, want)
	}
}
