package util_test

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
)

// A chat's times are on Vietnam's clock until it chooses another by name
// or offset; a bad zone is explained and changes nothing; in a group only
// its admins choose; the choice moves with the group.
func TestAChatChoosesTheClockItsTimesAreShownOn(t *testing.T) {
	clk := apptest.NewClock(time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC))
	b := apptest.New(t, builtin.Catalogue(), core.WithClock(clk.Now))
	b.Speaks(apptest.User, "en")
	for _, c := range []struct {
		chat      int64
		say, want string
	}{
		{apptest.PrivateChat, "/timezone", "Times in this chat are shown in Asia/Ho_Chi_Minh (UTC+07:00): it is 07 Dec 2026 08:00 now. To change it: /timezone Asia/Tokyo or /timezone UTC+9 (Vietnam: /timezone UTC+7)."},
		{apptest.PrivateChat, "/timezone Mars/Olympus", "I do not know that time zone. Write a zone's name (/timezone Asia/Tokyo, /timezone Europe/Berlin) or its offset from UTC (/timezone UTC+7)."},
		{apptest.PrivateChat, "/timezone europe/berlin", "From now on times in this chat are shown in Europe/Berlin (UTC+01:00): it is 07 Dec 2026 02:00 now."},
		{apptest.PrivateChat, "/timezone", "Times in this chat are shown in Europe/Berlin (UTC+01:00): it is 07 Dec 2026 02:00 now. To change it: /timezone Asia/Tokyo or /timezone UTC+9 (Vietnam: /timezone UTC+7)."},
		{apptest.Group, "/timezone UTC-5", "Only the group's admins can choose its time zone."},
	} {
		b.Expect(c.chat, apptest.User, c.say, c.want)
	}
	b.Srv.SetChatAdmin(apptest.Group, apptest.User)
	b.Expect(apptest.Group, apptest.User, "/timezone UTC-5", "From now on times in this chat are shown in UTC-05:00: it is 06 Dec 2026 20:00 now.")
	const super = -1009
	if err := b.App.ChatChanged(t.Context(), app.ChatChange{ChatID: apptest.Group, MovedTo: super}); err != nil {
		t.Fatal(err)
	}
	b.Expect(super, apptest.User, "/timezone", "Times in this chat are shown in UTC-05:00: it is 06 Dec 2026 20:00 now. To change it: /timezone Asia/Tokyo or /timezone UTC+9 (Vietnam: /timezone UTC+7).")
}
