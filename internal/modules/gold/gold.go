// Package gold is paper trading of SJC gold in VND, by the luong (37.5 g)
// to the chi (a tenth): SJC buy/sell prices from VNAppMob, falling back to
// world spot (PAXG, a token backed by one troy ounce of gold, in USDT on
// Binance) converted at the day's USD/VND rate from ExchangeRate-API.
// Buying pays the sell price; selling gets the buy price.
package gold

import (
	"embed"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/modules/trading/market"
)

// Name is the module's name in MODULES.
const Name = "gold"

// Settings.
const (
	settingVNAppMob = "VNAPPMOB_API_URL"
	settingERAPI    = "EXCHANGE_RATE_API_URL"
)

// Factory is the module, its charts drawn by dr.
func Factory(dr chart.Drawer) app.Factory { return market.Factory(kit, dr) }

// The symbol the engine keeps gold under.
const symbol = "SJC"

var rules = trading.Market{
	CashPlaces: 0, QtyPlaces: 1, // VND; luong to the chi
	MaxCash: decimal.NewFromInt(1_000_000_000_000), HistorySize: 50,
}

// priceFresh is how long a quote is reused from the store.
const priceFresh = time.Minute

// kit is the gold market: SJC first, then world spot. The shops' buy and
// sell prices differ, so both sources answer two-sided quotes. World spot
// reads two APIs: the ounce from Binance, the rate from ExchangeRate-API.
// texts are the market's own words (trading.Texts adds the shared).
//
//go:embed locales/*.toml
var texts embed.FS

var kit = &trading.Kit{
	Name: Name, Texts: texts,
	Settings: []app.Setting{
		{Name: settingVNAppMob, Default: "https://api.vnappmob.com", Help: "gold: VNAppMob API (SJC prices)"},
		trading.BinanceURL,
		{Name: settingERAPI, Default: "https://open.er-api.com", Help: "gold: ExchangeRate-API open rates (USD/VND for the world spot fallback)"},
	},
	Sources: func(s trading.Sites) []trading.Source {
		v := &vnappmob{store: s.Store, log: s.Log, now: s.Now, http: s.HTTP, base: s.URL(settingVNAppMob)}
		return []trading.Source{{Name: "SJC via VNAppMob", Quote: v.sjc},
			{Name: "world spot", StandIn: true, Quote: spot(s.HTTP, s.URL(trading.BinanceURL.Name), s.URL(settingERAPI))}}
	},
	Histories: func(s trading.Sites) []trading.HistorySource {
		return []trading.HistorySource{spotHistory(s.HTTP, s.URL(trading.BinanceURL.Name), s.URL(settingERAPI))}
	},
	Range: priceRange, Fresh: priceFresh, NoPrice: "no_price",
	SourceNames: map[string]string{"SJC via VNAppMob": "source.sjc", "world spot": "source.spot"},
	Market:      rules, Currency: "VND", Start: "100000000", Unit: "unit", Chart: chartVND,
	Only: symbol, Inline: inlineSymbol,
	Buy:  trading.OrderAmount{Max: decimal.NewFromInt(10_000), Hint: "hint.buy", Ask: "ask.buy"},
	Sell: trading.OrderAmount{Hint: "hint.sell", Ask: "ask.sell"},
	// An alert watches what a buyer pays (the shop's sell price).
	AlertExample: "above 90000000",
	AlertLabel:   "alert_label",
	ChartOnly:    chartSymbol,
	ChartLabel:   "chart_label",
	ChartHint:    "chart_hint",
	Periods:      trading.AllPeriods, Period: trading.Week,
}

// inlineSymbol reads an inline query as gold: "gold" or "SJC".
func inlineSymbol(q string) (string, bool) {
	return symbol, strings.EqualFold(q, "gold") || strings.EqualFold(q, symbol)
}
