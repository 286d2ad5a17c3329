package gold

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
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
