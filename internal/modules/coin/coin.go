// Package coin is paper trading of crypto coins in US dollars, at prices
// from Binance, then Coinbase, then CoinGecko (falling through on errors),
// on the shared trading kit.
package coin

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
const Name = "coin"

// Settings.
const (
	settingCoinbase  = "COINBASE_API_URL"
	settingCoinGecko = "COINGECKO_API_URL"
)

// Factory is the module, its charts drawn by dr.
func Factory(dr chart.Drawer) app.Factory { return market.Factory(kit, dr) }

var rules = trading.Market{
	CashPlaces: 2, QtyPlaces: 8,
	MaxCash: decimal.NewFromInt(1_000_000_000), HistorySize: 50,
}

// priceFresh is how long a price is reused from the store.
const priceFresh = 30 * time.Second

// texts are the coin market's own words (trading.Texts adds the shared).
//
//go:embed locales/*.toml
var texts embed.FS

// kit is the coin market.
var kit = &trading.Kit{
	Name: Name, Texts: texts,
	Settings: []app.Setting{
		trading.BinanceURL,
		{Name: settingCoinbase, Default: "https://api.coinbase.com", Help: "coin: Coinbase API (fallback)"},
		{Name: settingCoinGecko, Default: "https://api.coingecko.com", Help: "coin: CoinGecko API (last fallback)"},
	},
	Sources: func(s trading.Sites) []trading.Source {
		return []trading.Source{binance(s.HTTP, s.URL(trading.BinanceURL.Name)), coinbase(s.HTTP, s.URL(settingCoinbase)), coingecko(s.HTTP, s.URL(settingCoinGecko))}
	},
	Histories: func(s trading.Sites) []trading.HistorySource {
		return []trading.HistorySource{binanceHistory(s.HTTP, s.URL(trading.BinanceURL.Name)),
			coinbaseHistory(s.HTTP, s.URL(settingCoinbase)), coingeckoHistory(s.HTTP, s.URL(settingCoinGecko))}
	},
	Range: priceRange, Fresh: priceFresh,
	Market: rules, Currency: "USD", PricePlaces: pricePlaces, Start: "1000", Chart: chartUSD,
	Symbol: symbolArg, SymbolArg: "arg.symbol", Example: "BTC",
	Buy:          trading.OrderAmount{Cash: true, Max: rules.MaxCash, Arg: "arg.buy", Example: "100", Ask: "ask.buy"},
	Sell:         trading.OrderAmount{Arg: "arg.sell", Example: "0.5", Ask: "ask.sell"},
	AlertExample: "BTC above 120000", AlertSymbol: "noun",
	Periods: trading.AllPeriods, Period: trading.Week,
}

// symbolArg reads and checks a symbol argument.
func symbolArg(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	return s, trading.UpperAlnum(s, 2, 10)
}

// pricePlaces are the decimals a coin's price is written with: as many as
// it has, at least 2.
func pricePlaces(p decimal.Decimal) int32 {
	return max(2, int32(-decimal.RequireFromString(p.String()).Exponent()))
}
