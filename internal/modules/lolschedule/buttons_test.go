package lolschedule_test

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func (e *env) press(t *testing.T, chat, user int64, label string) string {
	t.Helper()
	data, err := e.Press(chat, user, label)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	return data
}

func (e *env) lastEdit() telegramtest.Sent {
	edits := e.Srv.Edits()
	if len(edits) == 0 {
		return telegramtest.Sent{}
	}
	return edits[len(edits)-1]
}

func TestTheDayViewPagesByDayInPlace(t *testing.T) {
	e := newEnv(t, nil)
	const chat, user = -100, 7
	e.MustSay(chat, user, "/lolschedule_today")
	if got := e.Buttons(chat); got != "[◀ 24/11] [Today] [26/11 ▶]" {
		t.Fatalf("the day view's keyboard: %q", got)
	}
	if data := e.press(t, chat, user, "26/11 ▶"); data != "sched:d:20261126" {
		t.Errorf("next-day data %q", data)
	}
	if got := e.lastEdit(); !strings.HasPrefix(got.Text, "<b>LoL matches, Thu 26/11/2026 (ICT)</b>") || got.ParseMode != "HTML" {
		t.Fatalf("the next day, edited in place: %+v", got)
	}
	if got := e.Buttons(chat); got != "[◀ 25/11] [Today] [27/11 ▶]" {
		t.Fatalf("the keyboard moves with the day: %q", got)
	}
	e.press(t, chat, user, "Today")
	if got := e.lastEdit(); !strings.HasPrefix(got.Text, "<b>LoL matches, Wed 25/11/2026 (ICT)</b>") {
		t.Fatalf("today again: %+v", got)
	}
	edits := len(e.Srv.Edits())
	e.press(t, chat, user, "Today") // the same view: Telegram says "not modified", which is no failure
	if len(e.Srv.Edits()) != edits+1 || len(e.Srv.Messages()) != 1 {
		t.Fatalf("a second Today: %d edits, %d messages", len(e.Srv.Edits()), len(e.Srv.Messages()))
	}
}

func TestTheWeekViewPagesByWeek(t *testing.T) {
	e := newEnv(t, nil)
	const chat, user = 5, 5
	e.MustSay(chat, user, "/lolschedule_week")
	if got := e.Buttons(chat); got != "[◀ Week of 16/11] [This week] [Week of 30/11 ▶]" {
		t.Fatalf("the week view's keyboard: %q", got)
	}
	e.press(t, chat, user, "Week of 30/11 ▶")
	if got := e.lastEdit(); !strings.Contains(got.Text, "30/11 to 06/12") {
		t.Fatalf("the next week: %+v", got)
	}
	e.press(t, chat, user, "This week")
	if got := e.lastEdit(); !strings.HasPrefix(got.Text, "<b>LoL matches this week, 23/11 to 29/11/2026 (ICT)</b>") {
		t.Fatalf("this week again: %+v", got)
	}
}

func TestTheSubscriptionsUnsubscribeButtonActsOnce(t *testing.T) {
	e := newEnv(t, nil)
	const chat, user = -100, 7
	e.MustSay(chat, user, "/lolschedule_subscribe")
	data := e.press(t, chat, user, "🔕 Unsubscribe")
	if got := e.lastEdit(); got.Text != "Unsubscribed: no more daily matches here." || e.Buttons(chat) != "" {
		t.Fatalf("after unsubscribing: %+v, keyboard %q", got, e.Buttons(chat))
	}
	// A double tap arrives as a second press of the same button.
	id, _, _ := e.Srv.Keyboard(chat)
	if err := e.Handle(telegramtest.Press(chat, user, id, data)); err != nil {
		t.Fatal(err)
	}
	if toasts := e.Toasts(); toasts[len(toasts)-1] != "Not subscribed here." {
		t.Fatalf("the second tap: toasts %q", toasts)
	}
	if keys := e.subscriberKeys(t); len(keys) != 0 {
		t.Fatalf("subscribers left: %v", keys)
	}
}

func TestThePushsButtonShowsItsDayAndGoesStaleTheNextDay(t *testing.T) {
	e, d := newPushEnv(t, nil)
	e.subscribe(t, [2]int64{-1, 0})
	if _, err := e.pushDay(t.Context(), d, slot); err != nil {
		t.Fatal(err)
	}
	if got := e.Buttons(-1); got != "[📅 Today's full schedule]" {
		t.Fatalf("the push's keyboard: %q", got)
	}
	data := e.press(t, -1, 3, "📅 Today's full schedule")
	if got := e.lastEdit(); !strings.HasPrefix(got.Text, "<b>LoL matches, Wed 25/11/2026 (ICT)</b>") || e.Buttons(-1) != "[◀ 24/11] [Today] [26/11 ▶]" {
		t.Fatalf("the push in full: %+v with %q", got, e.Buttons(-1))
	}
	e.clk.Add(24 * time.Hour)
	if err := e.Handle(telegramtest.Press(-1, 3, 1, data)); err != nil {
		t.Fatal(err)
	}
	if toasts := e.Toasts(); !strings.HasPrefix(toasts[len(toasts)-1], "That was 25/11's push") {
		t.Fatalf("yesterday's push button: toasts %q", toasts)
	}
}

// Buttons already on users' messages carry the format the module wrote
// before app.CallbackData ("sched:<kind>[:<yyyymmdd>]"): they keep
// working, and anything else a client sends gets the stale toast, never
// an error.
func TestOldButtonsKeepWorkingAndForgedOnesGetTheStaleToast(t *testing.T) {
	e := newEnv(t, nil)
	const chat, user = -100, 7
	e.MustSay(chat, user, "/lolschedule_today") // the message the presses edit
	tests := []struct {
		data, toast string
		edits       int
	}{
		{"sched:d:20261126", "", 1},
		{"sched:d", "", 1},
		{"sched:w:20261130", "", 1},
		{"sched:w", "", 1},
		{"sched:p:20261125", "", 1},
		{"sched:u", "Not subscribed here.", 0},
		{"sched:d:2026-11-26", app.StaleButtonToast, 0},
		{"sched:d:20260230", app.StaleButtonToast, 0},
		{"sched:d:20261126:1", app.StaleButtonToast, 0},
		{"sched:d:", app.StaleButtonToast, 0},
		{"sched:x", app.StaleButtonToast, 0},
		{"sched:", app.StaleButtonToast, 0},
		{"sched:d:\xff", app.StaleButtonToast, 0},
	}
	for _, tt := range tests {
		if toast, edits, err := e.PressData(chat, user, 1, tt.data); err != nil || toast != tt.toast || edits != tt.edits {
			t.Errorf("%q: toast %q, %d edits, %v; want %q, %d edits", tt.data, toast, edits, err, tt.toast, tt.edits)
		}
	}
}
