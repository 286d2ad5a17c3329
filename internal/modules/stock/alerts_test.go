package stock

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// Stock alerts check the ticker as the desk does.
func TestStockAlerts(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/stock_alert", "Usage: /stock_alert <ticker> above|below <price>, e.g. /stock_alert FPT below 100000"},
		{"/stock_alert 1FPT below 5", `Not a ticker: "1FPT".`},
		{"/stock_alert FPT below Infinity", `The level must be a positive number, e.g. 100000; not "Infinity".`},
	})
}
