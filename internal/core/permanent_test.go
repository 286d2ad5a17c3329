package core_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestAReplyTelegramRefusesForGoodEndsTheUpdate(t *testing.T) {
	tests := []struct {
		name    string
		failure telegramtest.Failure
		class   string
	}{
		{"the user blocked the bot", telegramtest.Failure{Code: 403, Description: "Forbidden: bot was blocked by the user"}, "blocked"},
		{"the chat does not exist", telegramtest.Failure{Code: 400, Description: "Bad Request: chat not found"}, "chat_not_found"},
		{"the message is too long", telegramtest.Failure{Code: 400, Description: "Bad Request: message is too long"}, "rejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := apptest.New(t, builtin.Catalogue())
			b.Srv.FailChat(apptest.PrivateChat, tt.failure)
			u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/ping")
			u.ID = 8101
			for range 2 { // the first delivery, then a redelivery
				if err := b.Handle(u); err != nil {
					t.Fatalf("HandleUpdate = %v, want the update ended (no redelivery can help)", err)
				}
			}
			if n := len(b.Srv.Calls("sendMessage")); n != 1 {
				t.Fatalf("%d sends, want the one reply: no retry, no apology", n)
			}
			if n := strings.Count(b.Logs.String(), `"class":"`+tt.class+`"`); n != 1 {
				t.Fatalf("the refusal is logged %d times with class %s: %s", n, tt.class, b.Logs)
			}
		})
	}
}

func TestACommandRetriedAfterATransientFailureIsCountedOnce(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"}, telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/ping")
	u.ID = 8102
	for i := range 3 {
		err := b.Handle(u)
		if (err == nil) != (i == 2) {
			t.Fatalf("delivery %d: %v; want two failures (retried), then handled", i+1, err)
		}
	}
	b.Expect(apptest.PrivateChat, apptest.Admin, "/stats cmd ping", "/ping: 1 uses\n1. @user (3): 1")
}

func TestAnEchoOfUserInputStaysShort(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue(), core.WithSettings(map[string]string{}))
	long := strings.Repeat("A", 4100)
	for _, cmd := range []string{"/coin_buy " + long + " 10", "/stock_buy " + long + " 100", "/loldle " + long, "/lolschedule " + long} {
		b.MustSay(apptest.PrivateChat, apptest.User, cmd)
		if got := b.Last(); len(got) > 200 || !strings.Contains(got, "…") {
			t.Fatalf("%.20s...: reply of %d bytes: %.80q", cmd, len(got), got)
		}
	}
}
