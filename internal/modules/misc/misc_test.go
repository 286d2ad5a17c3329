package misc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
)

func TestPingAnswersAndIsRecordedForMstats(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC)
	b := apptest.New(t, []app.Factory{misc.Factory}, core.WithClock(func() time.Time { return at }))

	b.Expect(apptest.PrivateChat, apptest.Admin, "/mstats", "No /ping yet.")
	b.Expect(apptest.Group, apptest.User, "/ping", "pong")
	b.MustSay(apptest.PrivateChat, apptest.Admin, "/mstats")
	if got := b.Last(); !strings.Contains(got, "2026-11-29 08:30:00") || !strings.Contains(got, "user 3") || !strings.Contains(got, "chat -100") {
		t.Fatalf("/mstats = %q", got)
	}
}

func TestPingDoesNotAnswerWhenItCannotRecord(t *testing.T) {
	b := apptest.New(t, []app.Factory{misc.Factory})
	b.Store.SetDown(true)
	if err := b.Say(apptest.PrivateChat, apptest.User, "/ping"); err == nil {
		t.Fatal("a ping that could not be recorded must fail so it is retried")
	}
	if len(b.Replies()) != 0 {
		t.Fatalf("replies = %q", b.Replies())
	}
}
