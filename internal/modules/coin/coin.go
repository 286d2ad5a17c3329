// Package coin is paper trading of crypto coins in US dollars, at prices
// from Binance, then Coinbase, then CoinGecko (falling through on errors),
// on the shared trading engine.
package coin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// Name is the module's name in MODULES.
const Name = "coin"

// Settings.
const (
	settingCoinbase  = "COINBASE_API_URL"
	settingCoinGecko = "COINGECKO_API_URL"
)

// Factory is the module, its charts drawn by dr.
func Factory(dr chart.Drawer) app.Factory {
	return app.Factory{
		Name: Name,
		Settings: []app.Setting{
			trading.BinanceURL,
			{Name: settingCoinbase, Default: "https://api.coinbase.com", Help: "coin: Coinbase API (fallback)"},
			{Name: settingCoinGecko, Default: "https://api.coingecko.com", Help: "coin: CoinGecko API (last fallback)"},
		},
		Jobs: []string{Name + "_values", Name + "_alerts"},
		New:  func(d app.Deps) (*app.Module, error) { return New(d, dr) },
	}
}

var market = trading.Market{
	CashPlaces: 2, QtyPlaces: 8,
	MaxCash: decimal.NewFromInt(1_000_000_000), HistorySize: 50,
}

// priceFresh is how long a price is reused from the store.
const priceFresh = 30 * time.Second

type module struct {
	desk *trading.Desk
}

// New builds the module, its charts drawn by dr.
func New(d app.Deps, dr chart.Drawer) (*app.Module, error) {
	quotes, err := trading.NewQuotes(d, priceFresh, "coin", priceRange,
		trading.SourceAt{Setting: trading.BinanceURL.Name, Build: binance},
		trading.SourceAt{Setting: settingCoinbase, Build: coinbase},
		trading.SourceAt{Setting: settingCoinGecko, Build: coingecko})
	if err != nil {
		return nil, err
	}
	charts, err := trading.NewCharts(d, dr, Name, "coin", chartUSD,
		trading.HistoryAt{Setting: trading.BinanceURL.Name, Build: binanceHistory},
		trading.HistoryAt{Setting: settingCoinbase, Build: coinbaseHistory},
		trading.HistoryAt{Setting: settingCoinGecko, Build: coingeckoHistory})
	if err != nil {
		return nil, err
	}
	m := &module{desk: &trading.Desk{Market: market, Quotes: quotes, Money: usd, Bot: d.Bot, Name: Name, Start: "1000"}}
	values := m.desk.Track(d, dr, chartUSD)
	orders := (&trading.Orders{Desk: m.desk, Conv: d.Conversations, Symbol: symbolArg, Buy: m.cmdBuy, Sell: m.cmdSell,
		BuyAmount: "How much USD? e.g. 100", SellAmount: "How much? A quantity, e.g. 0.5, or all"}).Track()
	alerts := (&trading.Alerts{Desk: m.desk, Bot: d.Bot, Log: d.Log, Symbol: symbolArg, Price: priceUSD, Example: "BTC above 120000"}).Track()
	return &app.Module{
		Name: Name,
		Commands: []app.Command{
			{Name: "coin_price", Description: "A coin's price in USD: /coin_price BTC", Handler: m.cmdPrice},
			{Name: "coin_topup", Description: "Add paper USD: /coin_topup 1000", Handler: trading.TopUpHandler(market, d.Store, d.Now, usd)},
			{Name: "coin_buy", Description: "Buy a coin for USD: /coin_buy BTC 100 (alone: asks)", Handler: orders.BuyCommand},
			{Name: "coin_sell", Description: "Sell a coin: /coin_sell BTC 0.5 (or all; alone: asks)", Handler: orders.SellCommand},
			{Name: "coin_stats", Description: "Your coin portfolio and profit/loss", Handler: m.desk.ShowStats},
			{Name: "coin_top", Description: "The coin board: this group's portfolios by value and 7-day change (private: /coin_top join to be on it)", Handler: m.desk.TopCommand},
			{Name: "coin_alert", Description: "Alert me when a coin crosses a price: /coin_alert BTC above 120000 (or below)", Handler: alerts.SetCommand},
			{Name: "coin_alerts", Description: "Your coin price alerts, a Cancel button each", Handler: alerts.ListCommand},
			{Name: "coin_chart", Description: "A coin's price chart: /coin_chart BTC 30d (1d, 7d, 30d, 1y)", Handler: charts.Command(symbolArg, "")},
		},
		Steps:        orders.Steps(),
		OnChatChange: m.desk.OnChatChange,
		OnMemberLeft: m.desk.OnMemberLeft,
		Crons:        []app.Cron{values.Cron(), alerts.Cron()},
		Web:          []app.WebRoute{m.desk.WebRoute(), m.desk.BoardWebRoute(), m.desk.ChartWebRoute(charts, symbolArg)},
		Callbacks:    []app.Callback{values.Callback(), m.desk.TopCallback(), alerts.Callback(), m.desk.Callback(priceText, symbolArg), charts.Callback(symbolArg)},
		Inline:       []app.Inline{m.cards().Inline(), m.desk.InlineSummary("Coin")},
	}, nil
}

// cards are the coin price cards of inline mode.
func (m *module) cards() *trading.Cards {
	return &trading.Cards{Desk: m.desk, Market: "Coin", Symbol: symbolArg, Text: priceText,
		Chart: func(sym string) string { return "/coin_chart " + sym }, Help: "BTC (any coin) - its price card, to send"}
}

func usd(d decimal.Decimal) string { return trading.USD(d, market.CashPlaces) }

// symbolArg reads and checks a symbol argument.
func symbolArg(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	return s, trading.UpperAlnum(s, 2, 10)
}

func (m *module) cmdPrice(ctx context.Context, r *app.Request) error {
	sym, ok := symbolArg(r.Args)
	if !ok {
		_, err := r.Reply(ctx, "Usage: /coin_price <symbol>, e.g. /coin_price BTC")
		return err
	}
	q, ok, err := m.desk.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, priceText(sym, q), m.desk.PriceKeyboard(sym))
	return err
}

// priceText is a price reply: as many decimals as the price has (small
// coins need them), at least 2.
func priceText(sym string, q trading.Quote) string {
	return fmt.Sprintf("%s: %s (%s)", sym, priceUSD(q.Price), q.Source)
}

// priceUSD is a coin's price as price replies write it.
func priceUSD(p decimal.Decimal) string {
	return trading.USD(p, max(2, int32(-decimal.RequireFromString(p.String()).Exponent())))
}

// orderArgs reads "<symbol> <amount>", or answers usage or a bad symbol
// (ok false; err is then the reply's error).
func orderArgs(ctx context.Context, r *app.Request, usage string) (sym, amount string, ok bool, err error) {
	f := strings.Fields(r.Args)
	if len(f) != 2 {
		_, err = r.Reply(ctx, usage)
		return "", "", false, err
	}
	if sym, ok = symbolArg(f[0]); !ok {
		_, err = r.Reply(ctx, "Not a coin symbol: "+app.Quote(f[0])+".")
		return "", "", false, err
	}
	return sym, f[1], true, nil
}

func (m *module) cmdBuy(ctx context.Context, r *app.Request) error {
	sym, arg, ok, err := orderArgs(ctx, r, "Usage: /coin_buy <symbol> <usd>, e.g. /coin_buy BTC 100")
	if !ok {
		return err
	}
	amount, err := trading.ParseAmount(arg, market.CashPlaces, market.MaxCash)
	if err != nil {
		return trading.Refuse(ctx, r, err)
	}
	return m.desk.Buy(ctx, r, sym, func(p *trading.Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error) {
		return p.BuyFor(market, sym, amount, price, now)
	})
}

func (m *module) cmdSell(ctx context.Context, r *app.Request) error {
	sym, arg, ok, err := orderArgs(ctx, r, "Usage: /coin_sell <symbol> <quantity|all>, e.g. /coin_sell BTC 0.5")
	if !ok {
		return err
	}
	qty, all, err := m.desk.SellArg(arg)
	if err != nil {
		return trading.Refuse(ctx, r, err)
	}
	return m.desk.Sell(ctx, r, sym, qty, all)
}
