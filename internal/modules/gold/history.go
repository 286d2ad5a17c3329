package gold

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// chartSymbol is what gold's charts draw: world spot, not SJC. VNAppMob
// serves SJC's latest price only (no history), so the chart is the ounce
// on Binance (PAXG) in VND per luong at today's USD/VND rate, and says so.
const chartSymbol = "XAU"

// The chart names what it draws by the catalog's "chart_label": "XAU"
// alone reads as dollars per ounce, or as SJC's price.

// spotNote is the key of the note under the chart: world spot, not SJC's.
const spotNote = "spot_note"

// spotHistory is PAXGUSDT's klines converted to VND per luong at one
// rate, today's: the line's shape is the ounce's in dollars, the level
// today's in dong.
func spotHistory(c *http.Client, binance, erAPI string) trading.HistorySource {
	return trading.HistorySource{Name: "world spot", Note: spotNote, Bars: func(ctx context.Context, _ string, p trading.Period, now time.Time) (trading.History, error) {
		h, err := trading.BinanceKlines(ctx, c, binance, spotPair, p, now)
		if err != nil {
			return trading.History{}, fmt.Errorf("world spot: %w", err)
		}
		vnd, err := usdVND(ctx, c, erAPI)
		if err != nil {
			return trading.History{}, fmt.Errorf("world spot: %w", err)
		}
		perLuong := vnd.Mul(gramsPerLuong).Div(gramsPerTroyOunce).InexactFloat64()
		for i := range h.Bars {
			b := &h.Bars[i]
			b.O, b.H, b.L, b.C = b.O*perLuong, b.H*perLuong, b.L*perLuong, b.C*perLuong
		}
		return h, nil
	}}
}

// chartVND is a price on a chart, in whole VND.
var chartVND = chart.Format{Suffix: " VND"}
