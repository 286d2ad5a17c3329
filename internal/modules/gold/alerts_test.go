package gold

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/cron"
)

// Gold's alerts take no symbol: the level of what a buyer pays per luong.
func TestGoldAlerts(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/gold_alert", "Usage: /gold_alert above|below <price>, e.g. /gold_alert above 90000000"},
		{"/gold_alert SJC above 9", "Usage: /gold_alert above|below <price>, e.g. /gold_alert above 90000000"},
		{"/gold_alert above", "Missing the price level. Usage: /gold_alert above|below <price>, e.g. /gold_alert above 90000000"},
		{"/gold_alert below 0", `The level must be a positive number, e.g. 90000000; not "0".`},
		{"/gold_alert above 9000000", "Gold (per luong, what a buyer pays) is already above 9,000,000 VND: 86,500,000 VND now (SJC via VNAppMob). An alert waits for the price to cross its level."},
		{"/gold_alert above 90000000", "🔔 Alert set: Gold (per luong, what a buyer pays) above 90,000,000 VND (now 86,500,000 VND, SJC via VNAppMob). It fires once, here, when the price crosses it. /gold_alerts lists yours."},
		{"/gold_alerts", "Your gold alerts (1 of at most 20):\n1. Gold (per luong, what a buyer pays) above 90,000,000 VND"},
	})
}

// A gold alert fires only on SJC's own price: while VNAppMob is down,
// world spot (another market, here 55% over SJC) crossing its level fires
// nothing, the list says why it waits, and a new alert set then says so;
// SJC's own crossing, once it answers, fires it once.
func TestAGoldAlertFiresOnlyOnSJCsOwnPrice(t *testing.T) {
	b, f, clk := setup(t)
	b.MustSay(apptest.PrivateChat, apptest.User, "/gold_alert above 100000000")
	check := func() {
		t.Helper()
		clk.Add(time.Minute)
		out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "gold_alerts", clk.Now().Truncate(time.Minute))
		if err != nil || out != cron.Ran {
			t.Fatalf("the check: %v, %v", out, err)
		}
	}
	f.mu.Lock()
	f.sjcDown = true
	f.mu.Unlock()
	clk.Add(time.Minute) // past SJC's cached price
	sends := len(b.Srv.Calls("sendMessage"))
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_price", "Gold per luong: buy 133,885,636 VND, sell 133,885,636 VND (world spot)\n"+
		"world spot $4433.33/oz x 25048 VND/USD x 37.5/31.1035 oz per luong")
	check()
	check()
	if got := len(b.Srv.Calls("sendMessage")) - sends; got != 1 {
		t.Fatalf("%d messages while only world spot answered; want none but the /gold_price reply", got-1)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_alerts", "Your gold alerts (1 of at most 20):\n"+
		"1. Gold (per luong, what a buyer pays) above 100,000,000 VND (waits since 29 Nov 19:02 ICT: no price from its own market's source (SJC via VNAppMob); world spot is another market's price and fires no alert)")
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_alert above 120000000", "🔔 Alert set: Gold (per luong, what a buyer pays) above 120,000,000 VND "+
		"(no price from SJC via VNAppMob now; world spot, another market's, says 133,885,636 VND: it waits for its own). It fires once, here, when the price crosses it. /gold_alerts lists yours.")
	f.mu.Lock()
	f.sjcDown = false
	f.mu.Unlock()
	sends = len(b.Srv.Calls("sendMessage"))
	check()
	check()
	if got := len(b.Srv.Calls("sendMessage")) - sends; got != 0 {
		t.Fatalf("%d messages with SJC back under both levels; want none", got)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_alerts", "Your gold alerts (2 of at most 20):\n"+
		"1. Gold (per luong, what a buyer pays) above 100,000,000 VND\n2. Gold (per luong, what a buyer pays) above 120,000,000 VND")
}
