// Package stock is paper trading of Vietnamese stocks (HOSE, HNX, UPCoM)
// in VND, at prices from KBS, then VCI (Vietcap), then SSI iBoard (falling
// through on errors), on the shared trading engine, with dividends entered
// by hand.
package stock

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "stock"

// Settings.
const (
	settingKBS = "KBS_API_URL"
	settingVCI = "VCI_API_URL"
	settingSSI = "SSI_IBOARD_API_URL"
)

// Factory is the module, its charts drawn by dr.
func Factory(dr chart.Drawer) app.Factory {
	return app.Factory{
		Name: Name,
		Settings: []app.Setting{
			{Name: settingKBS, Default: "https://kbbuddywts.kbsec.com.vn", Help: "stock: KB Securities market data API"},
			{Name: settingVCI, Default: "https://trading.vietcap.com.vn", Help: "stock: Vietcap (VCI) trading API (fallback)"},
			{Name: settingSSI, Default: "https://iboard-query.ssi.com.vn", Help: "stock: SSI iBoard query API (last fallback)"},
		},
		Jobs: []string{Name + "_values", Name + "_alerts"},
		New:  func(d app.Deps) (*app.Module, error) { return New(d, dr) },
	}
}

// market: whole VND and whole shares. HOSE, HNX and UPCoM all trade round
// lots of 100 on their main boards (odd lots go to a separate board we do
// not model), so buys and partial sells are multiples of 100; selling
// "all" also clears the odd lot a stock dividend leaves.
var market = trading.Market{
	CashPlaces: 0, QtyPlaces: 0,
	MaxCash: decimal.NewFromInt(1_000_000_000_000), LotSize: decimal.NewFromInt(100), HistorySize: 50,
}

// maxShares bounds a quantity typed by a user.
var maxShares = decimal.NewFromInt(1_000_000_000)

// priceFresh is how long a price is reused from the store.
const priceFresh = time.Minute

type module struct {
	store storage.KVStore
	now   func() time.Time
	desk  *trading.Desk
}

// New builds the module, its charts drawn by dr.
func New(d app.Deps, dr chart.Drawer) (*app.Module, error) {
	quotes, err := trading.NewQuotes(d, priceFresh, "ticker", priceRange,
		trading.SourceAt{Setting: settingKBS, Build: kbs},
		trading.SourceAt{Setting: settingVCI, Build: vci},
		trading.SourceAt{Setting: settingSSI, Build: ssi})
	if err != nil {
		return nil, err
	}
	charts, err := trading.NewCharts(d, dr, Name, "ticker", chartVND,
		trading.HistoryAt{Setting: settingKBS, Build: kbsHistory},
		trading.HistoryAt{Setting: settingVCI, Build: vciHistory})
	if err != nil {
		return nil, err
	}
	charts.Periods, charts.Default = periods, trading.Month
	m := &module{store: d.Store, now: d.Now,
		desk: &trading.Desk{Market: market, Quotes: quotes, Money: trading.VND, Bot: d.Bot, Name: Name, Start: "100000000"}}
	values := m.desk.Track(d, dr, chartVND)
	alerts := (&trading.Alerts{Desk: m.desk, Bot: d.Bot, Log: d.Log, Symbol: tickerArg, Price: trading.VND, Example: "FPT below 100000"}).Track()
	orders := (&trading.Orders{Desk: m.desk, Conv: d.Conversations, Symbol: tickerArg, Buy: m.cmdBuy, Sell: m.cmdSell,
		BuyAmount: "How many shares? In lots of 100, e.g. 100", SellAmount: "How many shares? e.g. 100, or all"}).Track()
	return &app.Module{
		Name: Name,
		Commands: []app.Command{
			{Name: "stock_price", Description: "A stock's price in VND: /stock_price FPT", Handler: m.cmdPrice},
			{Name: "stock_topup", Description: "Add paper VND: /stock_topup 100000000", Handler: trading.TopUpHandler(market, m.store, m.now, trading.VND)},
			{Name: "stock_buy", Description: "Buy shares in lots of 100: /stock_buy FPT 100 (alone: asks)", Handler: orders.BuyCommand},
			{Name: "stock_sell", Description: "Sell shares: /stock_sell FPT 100 (or all; alone: asks)", Handler: orders.SellCommand},
			{Name: "stock_stats", Description: "Your stock portfolio and profit/loss", Handler: m.desk.ShowStats},
			{Name: "stock_top", Description: "The stock board: this group's portfolios by value and 7-day change (private: /stock_top join to be on it)", Handler: m.desk.TopCommand},
			{Name: "stock_alert", Description: "Alert me when a stock crosses a price: /stock_alert FPT below 100000 (or above)", Handler: alerts.SetCommand},
			{Name: "stock_alerts", Description: "Your stock price alerts, a Cancel button each", Handler: alerts.ListCommand},
			{Name: "stock_income_stock", Description: "Record a stock dividend: /stock_income_stock FPT 15", Handler: m.cmdIncomeStock},
			{Name: "stock_chart", Description: "A stock's daily chart: /stock_chart FPT 1y (7d, 30d, 1y)", Handler: charts.Command(tickerArg, "")},
			{Name: "stock_income_vnd", Description: "Record a cash dividend: /stock_income_vnd FPT 200000", Handler: m.cmdIncomeVND},
		},
		Steps:        orders.Steps(),
		OnChatChange: m.desk.OnChatChange,
		OnMemberLeft: m.desk.OnMemberLeft,
		Crons:        []app.Cron{values.Cron(), alerts.Cron()},
		Web:          []app.WebRoute{m.desk.WebRoute(), m.desk.BoardWebRoute(), m.desk.ChartWebRoute(charts, tickerArg)},
		Callbacks:    []app.Callback{values.Callback(), m.desk.TopCallback(), alerts.Callback(), m.desk.Callback(priceText, tickerArg), charts.Callback(tickerArg)},
		Inline: []app.Inline{(&trading.Cards{Desk: m.desk, Market: "Stock", Symbol: inlineTicker, Text: priceText,
			Chart: func(sym string) string { return "/stock_chart " + sym }, Help: "FPT (any ticker) - its price card, to send"}).Inline(), m.desk.InlineSummary("Stock")},
	}, nil
}

// tickerArg reads and checks a ticker argument.
func tickerArg(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	// Three letters for shares; ETFs and covered warrants are longer
	// (E1VFVN30, CFPT2401); always a letter first.
	return s, trading.UpperAlnum(s, 3, 10) && s[0] >= 'A'
}

// inlineTicker reads an inline query as a ticker only when it looks like
// one: three letters (a share), or a fund's or warrant's letters and
// digits. A longer word ("wordle", "gold") is another module's query, and
// the brokers are not asked about it.
func inlineTicker(q string) (string, bool) {
	s, ok := tickerArg(q)
	return s, ok && (len(s) == 3 || strings.ContainsAny(s, "0123456789"))
}

// order is "<TICKER> <shares>" as typed; all stands for every share held.
type order struct {
	sym string
	qty decimal.Decimal
	all bool
}

// parseOrder reads an order, or answers what is wrong with it (ok false;
// err is then the reply's error).
func parseOrder(ctx context.Context, r *app.Request, usage string, allowAll bool) (o order, ok bool, err error) {
	f := strings.Fields(r.Args)
	if len(f) != 2 {
		_, err = r.Reply(ctx, usage)
		return o, false, err
	}
	if o.sym, ok = tickerArg(f[0]); !ok {
		_, err = r.Reply(ctx, "Not a ticker: "+app.Quote(f[0])+".")
		return o, false, err
	}
	if allowAll && strings.EqualFold(f[1], "all") {
		o.all = true
		return o, true, nil
	}
	if o.qty, err = trading.ParseAmount(f[1], market.QtyPlaces, maxShares); err != nil {
		return o, false, trading.Refuse(ctx, r, fmt.Errorf("%w (whole shares)", err))
	}
	return o, true, nil
}

func (m *module) cmdPrice(ctx context.Context, r *app.Request) error {
	sym, ok := tickerArg(r.Args)
	if !ok {
		_, err := r.Reply(ctx, "Usage: /stock_price <ticker>, e.g. /stock_price FPT")
		return err
	}
	q, ok, err := m.desk.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, priceText(sym, q), m.desk.PriceKeyboard(sym))
	return err
}

func priceText(sym string, q trading.Quote) string {
	return fmt.Sprintf("%s: %s (%s)", sym, trading.VND(q.Price), q.Source)
}

func (m *module) cmdBuy(ctx context.Context, r *app.Request) error {
	o, ok, err := parseOrder(ctx, r, "Usage: /stock_buy <ticker> <shares>, e.g. /stock_buy FPT 100", false)
	if !ok {
		return err
	}
	return m.desk.Buy(ctx, r, o.sym, func(p *trading.Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error) {
		return o.qty, p.BuyQty(market, o.sym, o.qty, price, now)
	})
}

func (m *module) cmdSell(ctx context.Context, r *app.Request) error {
	o, ok, err := parseOrder(ctx, r, "Usage: /stock_sell <ticker> <shares|all>, e.g. /stock_sell FPT 100", true)
	if !ok {
		return err
	}
	return m.desk.Sell(ctx, r, o.sym, o.qty, o.all)
}

func (m *module) cmdIncomeStock(ctx context.Context, r *app.Request) error {
	o, ok, err := parseOrder(ctx, r, "Usage: /stock_income_stock <ticker> <shares received>, e.g. /stock_income_stock FPT 15", false)
	if !ok {
		return err
	}
	return trading.Apply(ctx, m.store, r, func(p *trading.Portfolio) (string, error) {
		if err := p.IncomeShares(market, o.sym, o.qty, m.now()); err != nil {
			return "", err
		}
		return fmt.Sprintf("Recorded a stock dividend of %s %s. You hold %s %s.", trading.Qty(o.qty), o.sym, trading.Qty(p.Holdings[o.sym].Qty), o.sym), nil
	})
}

func (m *module) cmdIncomeVND(ctx context.Context, r *app.Request) error {
	f := strings.Fields(r.Args)
	if len(f) != 2 {
		_, err := r.Reply(ctx, "Usage: /stock_income_vnd <ticker> <vnd received>, e.g. /stock_income_vnd FPT 200000")
		return err
	}
	sym, ok := tickerArg(f[0])
	if !ok {
		_, err := r.Reply(ctx, "Not a ticker: "+app.Quote(f[0])+".")
		return err
	}
	amount, err := trading.ParseAmount(f[1], market.CashPlaces, market.MaxCash)
	if err != nil {
		return trading.Refuse(ctx, r, err)
	}
	return trading.Apply(ctx, m.store, r, func(p *trading.Portfolio) (string, error) {
		if err := p.IncomeCash(market, sym, amount, m.now()); err != nil {
			return "", err
		}
		return fmt.Sprintf("Recorded a cash dividend of %s on %s. Cash: %s.", trading.VND(amount), sym, trading.VND(p.Cash)), nil
	})
}
