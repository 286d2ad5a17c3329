package remind_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// The confirmation names the minute the reminder is kept to: the time
// the timer holds (whole seconds, rounded up), and on a redelivery of
// the command the time its first delivery set, not one counted from the
// redelivery's now. A redelivery sets nothing more, and is confirmed even
// when it is the fiftieth.
func TestTheConfirmationNamesTheTimeTheReminderHolds(t *testing.T) {
	tests := []struct {
		name    string
		start   time.Duration // after apptest.T0 (19:00 in Vietnam)
		pending int           // reminders set before
		later   time.Duration // from the first delivery to the redelivery
		want    string
	}{
		{"a second's rounding up crosses the minute", 59*time.Second + 600*time.Millisecond, 0, 0, "⏰ I will remind you at 19:11 (Vietnam time)."},
		{"delivered again three minutes later", 0, 0, 3 * time.Minute, "⏰ I will remind you at 19:10 (Vietnam time)."},
		{"the fiftieth, delivered again", 0, 49, time.Minute, "⏰ I will remind you at 19:10 (Vietnam time)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, clk := apptest.NewModule(t, remind.Factory, nil)
			for i := range tt.pending {
				b.MustSay(apptest.Group, apptest.User, fmt.Sprintf("/remind %dd r%d", i+1, i))
			}
			clk.Add(tt.start)
			u := telegramtest.Text(apptest.Group, apptest.User, "/remind 10m stretch")
			u.ID = 900_001
			if tt.later > 0 {
				b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
				if err := b.Handle(u); err == nil {
					t.Fatal("the confirmation failed: the update must fail, so Telegram delivers it again")
				}
				clk.Add(tt.later)
			}
			if err := b.Handle(u); err != nil {
				t.Fatal(err)
			}
			if got := b.Last(); got != tt.want {
				t.Fatalf("confirmed %q, want %q", got, tt.want)
			}
			b.MustSay(apptest.Group, apptest.User, "/remind_list")
			if got := strings.Count(b.Last(), "stretch"); got != 1 {
				t.Fatalf("the list holds %d reminders 'stretch', want 1:\n%s", got, b.Last())
			}
		})
	}
}

// A /remind whose confirmation was lost is delivered again, maybe after
// its reminder came or was cancelled: it is told the time it set and sets
// nothing more, so the reminder comes at most once.
func TestARedeliveryAfterTheReminderCameOrWasCancelledSetsNothing(t *testing.T) {
	for _, cancelled := range []bool{false, true} {
		t.Run(fmt.Sprintf("cancelled %t", cancelled), func(t *testing.T) {
			b, clk := apptest.NewModule(t, remind.Factory, nil)
			u := telegramtest.Text(apptest.Group, apptest.User, "/remind 1m tea")
			u.ID = 900_002
			b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
			if err := b.Handle(u); err == nil {
				t.Fatal("the confirmation failed: the update must fail, so Telegram delivers it again")
			}
			want := 1
			if cancelled {
				b.MustSay(apptest.Group, apptest.User, "/remind_list")
				if _, err := b.Press(apptest.Group, apptest.User, "Cancel 1"); err != nil {
					t.Fatal(err)
				}
				want = 0
			}
			minute(t, b, clk)
			minute(t, b, clk)
			if err := b.Handle(u); err != nil {
				t.Fatal(err)
			}
			if got := b.Last(); got != "⏰ I will remind you at 19:01 (Vietnam time)." {
				t.Fatalf("the redelivery was told %q, want the time it set", got)
			}
			for range 3 {
				minute(t, b, clk)
			}
			if got := reminders(b); len(got) != want {
				t.Fatalf("reminders %v, want %d", got, want)
			}
		})
	}
}

// The reminder's timer is what remembers the update that set it (its key
// is the update's, kept a day and more after it came): the user's record
// keeps no list of updates, and a redelivery a day later is still told
// the time its first delivery set and sets nothing.
func TestTheTimerRemembersTheUpdateThatSetItNotTheUsersRecord(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	u := telegramtest.Text(apptest.Group, apptest.User, "/remind 1m tea")
	u.ID = 900_003
	b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if err := b.Handle(u); err == nil {
		t.Fatal("the confirmation failed: the update must fail, so Telegram delivers it again")
	}
	rec, err := b.Store.For(remind.Name).Get(t.Context(), fmt.Sprintf("asked:%d", apptest.User))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rec), "applied") {
		t.Errorf("the user's record remembers updates: %s", rec)
	}
	for range 3 {
		minute(t, b, clk)
	}
	clk.Add(23 * time.Hour)
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "⏰ I will remind you on Sun 29 Nov 2026 at 19:01 (Vietnam time)." {
		t.Fatalf("the redelivery a day later was told %q, want the time it set", got)
	}
	for range 3 {
		minute(t, b, clk)
	}
	if got := reminders(b); len(got) != 1 {
		t.Fatalf("reminders %v, want one", got)
	}
}
