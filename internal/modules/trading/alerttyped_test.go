package trading

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// An alert's level reads as its writer's language writes it: a Vietnamese
// 0,5 is a half, 60.000,5 sixty thousand and a half; 1.500 reads two ways
// there and is refused.
func TestAVietnameseUsersAlertLevelReadsAsVietnameseWritesIt(t *testing.T) {
	a := replica(memory.New().For("coin"), &clock{t: alertNow}, newTable(map[string]string{}), &sentBot{}, 0)
	a.Desk.Quotes.Range = coinRange
	vi := app.Words{Lang: app.Vietnamese}
	for args, want := range map[string]string{"BTC above 0,5": "0.5", "BTC above 60.000,5": "60000.5", "BTC above 0.5": "0.5"} {
		o, err := a.ParseAlert(vi, args)
		if err != nil || !o.Level.Equal(decimal.RequireFromString(want)) {
			t.Errorf("%s: %v, %v; want the level %s", args, o.Level, err, want)
		}
	}
	if o, err := a.ParseAlert(vi, "BTC above 1.500"); err == nil {
		t.Errorf("1.500: the level %s; want it refused as reading two ways", o.Level)
	}
}
