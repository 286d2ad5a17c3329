// Package gold is paper trading of SJC gold in VND, by the luong (37.5 g)
// to the chi (a tenth): SJC buy/sell prices from VNAppMob, falling back to
// world spot (PAXG, a token backed by one troy ounce of gold, in USDT on
// Binance) converted at the day's USD/VND rate from ExchangeRate-API.
// Buying pays the sell price; selling gets the buy price.
package gold

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "gold"

// Settings.
const (
	settingVNAppMob = "VNAPPMOB_API_URL"
	settingERAPI    = "EXCHANGE_RATE_API_URL"
)

// Factory is the module, its charts drawn by dr.
func Factory(dr chart.Drawer) app.Factory {
	return app.Factory{
		Name: Name,
		Settings: []app.Setting{
			{Name: settingVNAppMob, Default: "https://api.vnappmob.com", Help: "gold: VNAppMob API (SJC prices)"},
			trading.BinanceURL,
			{Name: settingERAPI, Default: "https://open.er-api.com", Help: "gold: ExchangeRate-API open rates (USD/VND for the world spot fallback)"},
		},
		Jobs: []string{Name + "_values", Name + "_alerts"},
		New:  func(d app.Deps) (*app.Module, error) { return New(d, dr) },
	}
}

// The symbol the engine keeps gold under.
const symbol = "SJC"

var market = trading.Market{
	CashPlaces: 0, QtyPlaces: 1, // VND; luong to the chi
	MaxCash: decimal.NewFromInt(1_000_000_000_000), HistorySize: 50,
}

// priceFresh is how long a quote is reused from the store.
const priceFresh = time.Minute

// module keeps what the VNAppMob source needs besides its URL: the store
// and clock for its cached API key.
type module struct {
	store    storage.KVStore
	log      *slog.Logger
	now      func() time.Time
	http     *http.Client
	vnappmob string
	desk     *trading.Desk
}

// New builds the module, its charts drawn by dr.
func New(d app.Deps, dr chart.Drawer) (*app.Module, error) {
	m := &module{store: d.Store, log: d.Log, now: d.Now}
	// SJC first, then world spot. The shops' buy and sell prices differ, so
	// both sources answer two-sided quotes. World spot reads two APIs: the
	// ounce from Binance, the rate from ExchangeRate-API.
	binance, err := trading.CheckURL(trading.BinanceURL.Name, d.Settings[trading.BinanceURL.Name])
	if err != nil {
		return nil, err
	}
	quotes, err := trading.NewQuotes(d, priceFresh, "gold", priceRange,
		trading.SourceAt{Setting: settingVNAppMob, Build: func(c *http.Client, base string) trading.Source {
			m.http, m.vnappmob = c, base
			return trading.Source{Name: "SJC via VNAppMob", Quote: m.sjc}
		}},
		trading.SourceAt{Setting: settingERAPI, Build: func(c *http.Client, base string) trading.Source {
			return trading.Source{Name: "world spot", StandIn: true, Quote: spot(c, binance, base)}
		}})
	if err != nil {
		return nil, err
	}
	quotes.NoPrice = "No gold price right now; every source failed. Try again later."
	charts, err := trading.NewCharts(d, dr, Name, "gold", chartVND,
		trading.HistoryAt{Setting: settingERAPI, Build: func(c *http.Client, base string) trading.HistorySource {
			return spotHistory(c, binance, base)
		}})
	if err != nil {
		return nil, err
	}
	charts.Label = func(string) string { return chartLabel }
	m.desk = &trading.Desk{Market: market, Quotes: quotes, Money: trading.VND, Bot: d.Bot, Name: Name, Start: "100000000", Unit: "luong"}
	values := m.desk.Track(d, dr, chartVND)
	// An alert watches what a buyer pays (the shop's sell price).
	alerts := (&trading.Alerts{Desk: m.desk, Bot: d.Bot, Log: d.Log, Fixed: symbol, Price: trading.VND, Example: "above 90000000",
		Label: func(string) string { return "Gold (per luong, what a buyer pays)" }}).Track()
	orders := (&trading.Orders{Desk: m.desk, Conv: d.Conversations, Only: symbol, Buy: m.cmdBuy, Sell: m.cmdSell,
		Symbol:    func(s string) (string, bool) { return s, s == symbol },
		BuyAmount: "How many luong? e.g. 0.5", SellAmount: "How many luong? e.g. 0.5, or all"}).Track()
	return &app.Module{
		Name: Name,
		Commands: []app.Command{
			{Name: "gold_price", Description: "SJC gold buy/sell price in VND per luong", Handler: m.cmdPrice},
			{Name: "gold_topup", Description: "Add paper VND: /gold_topup 100000000", Handler: trading.TopUpHandler(market, d.Store, d.Now, trading.VND)},
			{Name: "gold_buy", Description: "Buy gold by the luong: /gold_buy 0.5 (alone: asks)", Handler: orders.BuyCommand},
			{Name: "gold_sell", Description: "Sell gold: /gold_sell 0.5 (or all; alone: asks)", Handler: orders.SellCommand},
			{Name: "gold_stats", Description: "Your gold portfolio and profit/loss", Handler: m.desk.ShowStats},
			{Name: "gold_top", Description: "The gold board: this group's portfolios by value and 7-day change (private: /gold_top join to be on it)", Handler: m.desk.TopCommand},
			{Name: "gold_alert", Description: "Alert me when gold crosses a price per luong: /gold_alert above 90000000 (or below)", Handler: alerts.SetCommand},
			{Name: "gold_alerts", Description: "Your gold price alerts, a Cancel button each", Handler: alerts.ListCommand},
			{Name: "gold_chart", Description: "World gold's chart in VND per luong: /gold_chart 30d (1d, 7d, 30d, 1y)", Handler: charts.Command(isChartSymbol, chartSymbol)},
		},
		Steps:        orders.Steps(),
		OnChatChange: m.desk.OnChatChange,
		OnMemberLeft: m.desk.OnMemberLeft,
		Crons:        []app.Cron{values.Cron(), alerts.Cron()},
		Web:          []app.WebRoute{m.desk.WebRoute(), m.desk.BoardWebRoute(), m.desk.ChartWebRoute(charts, func(string) (string, bool) { return chartSymbol, true })},
		Callbacks: []app.Callback{values.Callback(), m.desk.TopCallback(), alerts.Callback(), m.desk.Callback(func(_ string, q trading.Quote) string { return priceText(q) },
			func(s string) (string, bool) { return s, s == symbol }), charts.Callback(isChartSymbol)},
		Inline: []app.Inline{(&trading.Cards{Desk: m.desk, Market: "Gold", Symbol: inlineSymbol,
			Text:  func(_ string, q trading.Quote) string { return priceText(q) },
			Chart: func(string) string { return "/gold_chart (world gold in VND)" }, Help: "gold - the SJC price card, to send"}).Inline(), m.desk.InlineSummary("Gold")},
	}, nil
}

// inlineSymbol reads an inline query as gold: "gold" or "SJC".
func inlineSymbol(q string) (string, bool) {
	return symbol, strings.EqualFold(q, "gold") || strings.EqualFold(q, symbol)
}

func (m *module) cmdPrice(ctx context.Context, r *app.Request) error {
	q, ok, err := m.desk.Quotes.PriceOrReply(ctx, r, symbol)
	if !ok {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, priceText(q), m.desk.PriceKeyboard(symbol))
	return err
}

// priceText is a price reply.
func priceText(q trading.Quote) string {
	text := fmt.Sprintf("Gold per luong: buy %s, sell %s (%s)", trading.VND(q.SellPrice()), trading.VND(q.Price), q.Source)
	if q.Note != "" {
		text += "\n" + q.Note
	}
	return text
}

// cmdBuy buys at the shop's sell price (the quote's Price).
func (m *module) cmdBuy(ctx context.Context, r *app.Request) error {
	qty, err := trading.ParseAmount(strings.TrimSpace(r.Args), market.QtyPlaces, decimal.NewFromInt(10_000))
	if err != nil {
		return trading.Refuse(ctx, r, fmt.Errorf("%w (luong, to the chi: e.g. 0.5)", err))
	}
	return m.desk.Buy(ctx, r, symbol, func(p *trading.Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error) {
		return qty, p.BuyQty(market, symbol, qty, price, now)
	})
}

// cmdSell sells at the shop's buy price (the quote's Bid).
func (m *module) cmdSell(ctx context.Context, r *app.Request) error {
	arg := strings.TrimSpace(r.Args)
	all := strings.EqualFold(arg, "all")
	var qty decimal.Decimal
	if !all {
		var err error
		if qty, err = trading.ParseAmount(arg, market.QtyPlaces, decimal.Zero); err != nil {
			return trading.Refuse(ctx, r, fmt.Errorf("%w (luong, or all)", err))
		}
	}
	return m.desk.Sell(ctx, r, symbol, qty, all)
}

func isChartSymbol(s string) (string, bool) { return s, s == chartSymbol }
