// Package stock is paper trading of Vietnamese stocks (HOSE, HNX, UPCoM)
// in VND, at prices from KBS, then VCI (Vietcap), then SSI iBoard (falling
// through on errors), on the shared trading kit, with dividends entered
// by hand.
package stock

import (
	"context"
	"embed"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/modules/trading/desk"
	"github.com/miti99bot/miti99bot/internal/modules/trading/market"
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
func Factory(dr chart.Drawer) app.Factory { return market.Factory(kit, dr) }

// rules: whole VND and whole shares. HOSE, HNX and UPCoM all trade round
// lots of 100 on their main boards (odd lots go to a separate board we do
// not model), so buys and partial sells are multiples of 100; selling
// "all" also clears the odd lot a stock dividend leaves.
var rules = trading.Market{
	CashPlaces: 0, QtyPlaces: 0,
	MaxCash: decimal.NewFromInt(1_000_000_000_000), LotSize: decimal.NewFromInt(100), HistorySize: 50,
}

// maxShares bounds a quantity typed by a user.
var maxShares = decimal.NewFromInt(1_000_000_000)

// priceFresh is how long a price is reused from the store.
const priceFresh = time.Minute

// kit is the stock market.
// texts are the market's own words (trading.Texts adds the shared).
//
//go:embed locales/*.toml
var texts embed.FS

var kit = &trading.Kit{
	Name: Name, Texts: texts,
	Settings: []app.Setting{
		{Name: settingKBS, Default: "https://kbbuddywts.kbsec.com.vn", Help: "stock: KB Securities market data API"},
		{Name: settingVCI, Default: "https://trading.vietcap.com.vn", Help: "stock: Vietcap (VCI) trading API (fallback)"},
		{Name: settingSSI, Default: "https://iboard-query.ssi.com.vn", Help: "stock: SSI iBoard query API (last fallback)"},
	},
	Sources: func(s trading.Sites) []trading.Source {
		return []trading.Source{kbs(s.HTTP, s.URL(settingKBS)), vci(s.HTTP, s.URL(settingVCI)), ssi(s.HTTP, s.URL(settingSSI))}
	},
	Histories: func(s trading.Sites) []trading.HistorySource {
		return []trading.HistorySource{kbsHistory(s.HTTP, s.URL(settingKBS)), vciHistory(s.HTTP, s.URL(settingVCI))}
	},
	Range: priceRange, Fresh: priceFresh,
	Market: rules, Currency: "VND", Start: "100000000", Chart: chartVND,
	Symbol: tickerArg, Inline: inlineTicker, SymbolArg: "arg.ticker", Example: "FPT",
	Buy:          shares("arg.buy", "100", "ask.buy"),
	Sell:         shares("arg.sell", "100", "ask.sell"),
	AlertExample: "FPT below 100000", AlertSymbol: "arg.ticker",
	Periods: periods, Period: trading.Month,
	More: dividends,
}

// shares is an amount of whole shares.
func shares(arg, example, ask string) trading.OrderAmount {
	return trading.OrderAmount{Max: maxShares, Arg: arg, Example: example, Hint: "hint.shares", Ask: ask}
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

// dividends are the commands that record a dividend, entered by hand.
func dividends(d *trading.Desk) []app.Command {
	return []app.Command{
		{Name: "stock_income_stock", Handler: func(ctx context.Context, r *app.Request) error {
			o, ok, err := desk.Read(ctx, r, d, "income_stock", shares("arg.shares_received", "15", ""), false)
			if !ok {
				return err
			}
			return trading.Apply(ctx, d.Quotes.Store, r, func(p *trading.Portfolio) (string, error) {
				if err := p.IncomeShares(rules, o.Sym, o.Amount, d.Quotes.Now()); err != nil {
					return "", err
				}
				return r.T("income_stock", app.Args{"Qty": trading.QtyIn(r.Lang, o.Amount), "Sym": o.Sym, "Held": trading.QtyIn(r.Lang, p.Holdings[o.Sym].Qty)}), nil
			})
		}},
		{Name: "stock_income_vnd", Handler: func(ctx context.Context, r *app.Request) error {
			o, ok, err := desk.Read(ctx, r, d, "income_vnd", trading.OrderAmount{Cash: true, Max: rules.MaxCash, Arg: "arg.vnd_received", Example: "200000"}, false)
			if !ok {
				return err
			}
			return trading.Apply(ctx, d.Quotes.Store, r, func(p *trading.Portfolio) (string, error) {
				if err := p.IncomeCash(rules, o.Sym, o.Amount, d.Quotes.Now()); err != nil {
					return "", err
				}
				return r.T("income_vnd", app.Args{"Amount": d.Cash(r.Lang, o.Amount), "Sym": o.Sym, "Cash": d.Cash(r.Lang, p.Cash)}), nil
			})
		}},
	}
}
