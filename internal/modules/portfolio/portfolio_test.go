package portfolio_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/portfolio"
)

func TestPortfolioOpensTheAppTheWayEachChatAllows(t *testing.T) {
	const url = "https://bot.example.org/app/"
	for _, tc := range []struct {
		name, appURL string
		chat         int64
		want         []string // in the reply's text and keyboard
	}{
		{"a private chat gets a web_app button", url, apptest.PrivateChat, []string{`"web_app":{"url":"` + url + `"}`, "Open portfolio"}},
		{"a group gets a link to the Main Mini App with the group as start parameter", url, apptest.Group,
			[]string{`"url":"https://t.me/miti99bot?startapp=-100"`, "this group's board"}}, // the fake Bot API's getMe
		{"a group needs no APP_URL: Telegram knows the Main Mini App", "", apptest.Group, []string{"startapp=-100"}},
		{"without an address, a private chat is told who sets it", "", apptest.PrivateChat, []string{"APP_URL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := apptest.New(t, []app.Factory{portfolio.Factory}, core.WithAppURL(func() string { return tc.appURL }))
			b.MustSay(tc.chat, apptest.User, "/portfolio")
			msgs := b.Srv.Messages()
			if len(msgs) == 0 {
				t.Fatal("no reply")
			}
			got := msgs[len(msgs)-1].Text + " " + msgs[len(msgs)-1].ReplyMarkup
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("reply %q lacks %q", got, w)
				}
			}
		})
	}
}
