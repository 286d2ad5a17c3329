package util_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestStartGreetsWithTheCommandList(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.MustSay(apptest.PrivateChat, apptest.User, "/start")
	got := b.Last()
	if !strings.HasPrefix(got, "Hi! I am miti99bot.") || !strings.Contains(got, "/ping - Check that the bot is alive") {
		t.Fatalf("/start = %q", got)
	}
	if strings.Contains(got, "/info") {
		t.Fatalf("/start shows a protected command to a user: %q", got)
	}
}

func TestInfoShowsTheIdsOfATopicMessage(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	if err := b.Handle(telegramtest.InTopic(telegramtest.Text(apptest.Group, apptest.Owner, "/info"), 12)); err != nil {
		t.Fatal(err)
	}
	if got, want := b.Last(), "chat_id: -100\nthread_id: 12\nuser_id: 1"; got != want {
		t.Fatalf("/info = %q, want %q", got, want)
	}
}

func TestALongHelpIsOnePagePerModuleWithModuleButtons(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.MustSay(apptest.Group, apptest.User, "/help")
	if got := b.Last(); !strings.HasPrefix(got, "<b>Commands: util</b>\n/start - ") || strings.Contains(got, "/wordle") {
		t.Fatalf("the first page: %q", got)
	}
	if got := b.Buttons(apptest.Group); !strings.HasPrefix(got, "[• util] [misc] [") || strings.Contains(got, "stats") {
		t.Fatalf("the module buttons (a user's: no stats): %q", got)
	}
	data, err := b.Press(apptest.Group, apptest.User, "wordle")
	if err != nil || data != "help:wordle" {
		t.Fatalf("press %q: %v", data, err)
	}
	edits := b.Srv.Edits()
	if len(edits) != 1 || !strings.HasPrefix(edits[0].Text, "<b>Commands: wordle</b>\n/wordle - ") || !strings.Contains(b.Buttons(apptest.Group), "[• wordle]") {
		t.Fatalf("the wordle page, edited in place: %+v, %s", edits, b.Buttons(apptest.Group))
	}
	// An admin's /help has a stats button; a user pressing it learns nothing.
	b.MustSay(apptest.Group, apptest.Admin, "/help")
	if !strings.Contains(b.Buttons(apptest.Group), "[stats]") {
		t.Fatalf("the admin's buttons: %s", b.Buttons(apptest.Group))
	}
	if _, err := b.Press(apptest.Group, apptest.User, "stats"); err != nil {
		t.Fatal(err)
	}
	if toasts := b.Toasts(); !strings.HasPrefix(toasts[len(toasts)-1], "That module's commands are not yours") || len(b.Srv.Edits()) != 1 {
		t.Fatalf("a user pressing an admin's stats button: toasts %q, %d edits", toasts, len(b.Srv.Edits()))
	}
}

// /help's buttons already on users' messages carry the format it wrote
// before app.CallbackData ("help:<module>"): they keep working, and
// anything else a client sends gets the stale toast, never an error.
func TestOldHelpButtonsKeepWorkingAndForgedOnesGetTheStaleToast(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.MustSay(apptest.Group, apptest.User, "/help") // the message the presses edit
	tests := []struct {
		data, toast string
		edits       int
	}{
		{"help:wordle", "", 1},
		{"help:nosuch", "That module's commands are not yours to run, or it is off now: /help lists what is.", 0},
		{"help:", app.StaleButtonToast, 0},
		{"help:wordle:1", app.StaleButtonToast, 0},
		{"help:\xff", app.StaleButtonToast, 0},
	}
	for _, tt := range tests {
		if toast, edits, err := b.PressData(apptest.Group, apptest.User, 1, tt.data); err != nil || toast != tt.toast || edits != tt.edits {
			t.Errorf("%q: toast %q, %d edits, %v; want %q, %d edits", tt.data, toast, edits, err, tt.toast, tt.edits)
		}
	}
}

// A Vietnamese client gets util and the engine in Vietnamese: /start's
// greeting, /help's frame and each command's description from util's
// catalog; an English one still reads English.
func TestAVietnameseUserReadsStartAndHelpInVietnamese(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.Speaks(apptest.User, "vi")
	b.MustSay(apptest.PrivateChat, apptest.User, "/start")
	got := b.Last()
	for _, want := range []string{"Chào bạn! Mình là miti99bot.", "/help - Xem các lệnh bạn dùng được"} {
		if !strings.Contains(got, want) {
			t.Errorf("/start in Vietnamese = %q, want it to hold %q", got, want)
		}
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/help")
	if got := b.Last(); !strings.HasPrefix(got, "<b>Danh sách lệnh: util</b>\n/start - Chào hỏi") {
		t.Errorf("/help in Vietnamese = %q", got)
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/nosuchcommand")
	if got, want := b.Last(), "Mình không biết lệnh này. Gửi /help để xem mình làm được gì."; got != want {
		t.Errorf("an unknown command in Vietnamese = %q, want %q", got, want)
	}
	b.Speaks(apptest.Admin, "en-US")
	b.MustSay(apptest.Admin, apptest.Admin, "/nosuchcommand")
	if got, want := b.Last(), "Unknown command. Send /help to see what I can do."; got != want {
		t.Errorf("an unknown command in English = %q, want %q", got, want)
	}
}
