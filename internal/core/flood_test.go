package core_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestAnUpdateTelegramAsksToWaitForIsNeverDropped(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	flood := telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 40", RetryAfter: 40}
	floods := make([]telegramtest.Failure, 8) // more than the 5 attempts after which a failing update is dropped
	for i := range floods {
		floods[i] = flood
	}
	b.Srv.FailNext("sendMessage", floods...)
	u := telegramtest.Text(apptest.Group, apptest.User, "/ping")
	u.ID = 8201
	for i := range len(floods) {
		var fe *app.FloodError
		if err := b.Handle(u); !errors.As(err, &fe) || fe.RetryAfter.Seconds() != 40 {
			t.Fatalf("delivery %d = %v, want a FloodError asking for 40 s (not handled, not dropped)", i+1, err)
		}
	}
	if err := b.Handle(u); err != nil {
		t.Fatalf("once Telegram takes it: %v", err)
	}
	// The fake records every attempt: eight refused, then the one taken.
	if got := b.Replies(); len(got) != len(floods)+1 || slices.ContainsFunc(got, func(s string) bool { return s != "pong" }) {
		t.Fatalf("sends %q: want only the reply, never an apology", got)
	}
	if strings.Contains(b.Logs.String(), "dropped after repeated failures") {
		t.Fatal("the update was dropped because Telegram asked to wait")
	}
}
