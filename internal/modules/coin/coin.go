// Package coin is paper trading of crypto coins in US dollars, at prices
// from Binance, then Coinbase, then CoinGecko (falling through on errors),
// on the shared trading engine.
package coin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "coin"

// Settings.
const (
	settingBinance   = "BINANCE_API_URL"
	settingCoinbase  = "COINBASE_API_URL"
	settingCoinGecko = "COINGECKO_API_URL"
)

// Factory registers the module.
var Factory = app.Factory{
	Name: Name,
	Settings: []app.Setting{
		{Name: settingBinance, Default: "https://data-api.binance.vision", Help: "coin: Binance market data API"},
		{Name: settingCoinbase, Default: "https://api.coinbase.com", Help: "coin: Coinbase API (fallback)"},
		{Name: settingCoinGecko, Default: "https://api.coingecko.com", Help: "coin: CoinGecko API (last fallback)"},
	},
	New: New,
}

var market = trading.Market{
	CashPlaces: 2, QtyPlaces: 8,
	MaxCash: decimal.NewFromInt(1_000_000_000), HistorySize: 50,
}

// priceFresh is how long a price is reused from the store.
const priceFresh = 30 * time.Second

var symbolRE = regexp.MustCompile(`^[A-Z0-9]{2,10}$`)

type module struct {
	store   storage.KVStore
	log     *slog.Logger
	now     func() time.Time
	sources []source
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	f := fetcher{http: d.HTTP}
	m := &module{store: d.Store, log: d.Log, now: d.Now}
	for _, s := range []struct {
		setting string
		build   func(fetcher, string) source
	}{{settingBinance, binance}, {settingCoinbase, coinbase}, {settingCoinGecko, coingecko}} {
		base, err := trading.CheckURL(s.setting, d.Settings[s.setting])
		if err != nil {
			return nil, err
		}
		m.sources = append(m.sources, s.build(f, base))
	}
	return &app.Module{
		Name: Name,
		Commands: []app.Command{
			{Name: "coin_price", Description: "A coin's price in USD: /coin_price BTC", Handler: m.cmdPrice},
			{Name: "coin_topup", Description: "Add paper USD: /coin_topup 1000", Handler: trading.TopUpHandler(market, m.store, m.now, usd)},
			{Name: "coin_buy", Description: "Buy a coin for USD: /coin_buy BTC 100", Handler: m.cmdBuy},
			{Name: "coin_sell", Description: "Sell a coin: /coin_sell BTC 0.5 (or all)", Handler: m.cmdSell},
			{Name: "coin_stats", Description: "Your coin portfolio and profit/loss", Handler: m.cmdStats},
		},
	}, nil
}

type quote struct {
	Price  decimal.Decimal `json:"price"`
	Source string          `json:"source"`
	At     time.Time       `json:"at"`
}

var (
	errUnknownSymbol = errors.New("unknown symbol")
	errNoPrice       = errors.New("no price source answered")
)

// price returns a fresh cached quote, or asks the sources in order.
func (m *module) price(ctx context.Context, sym string) (quote, error) {
	var q quote
	key := "price:" + sym
	if err := m.store.GetJSON(ctx, key, &q); err == nil && m.now().Sub(q.At) < priceFresh {
		return q, nil
	}
	unknown := 0
	for _, s := range m.sources {
		p, err := s.price(ctx, sym)
		if err == nil {
			q = quote{Price: p, Source: s.name, At: m.now()}
			if err := m.store.PutJSON(ctx, key, q); err != nil {
				m.log.Warn("coin: price not cached", "err", err)
			}
			return q, nil
		}
		if errors.Is(err, trading.ErrUnknown) {
			unknown++
		} else {
			m.log.Warn("coin: price source failed", "source", s.name, "symbol", sym, "err", err)
		}
	}
	if unknown == len(m.sources) {
		return q, errUnknownSymbol
	}
	return q, errNoPrice
}

func usd(d decimal.Decimal) string { return "$" + trading.Money(d, market.CashPlaces) }

// symbolArg reads and checks a symbol argument.
func symbolArg(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	return s, symbolRE.MatchString(s)
}

// quoteOrReply prices sym, or answers why it cannot.
func (m *module) quoteOrReply(ctx context.Context, r *app.Request, sym string) (quote, bool, error) {
	q, err := m.price(ctx, sym)
	switch {
	case errors.Is(err, errUnknownSymbol):
		return q, false, r.Reply(ctx, "Unknown coin: "+sym+".")
	case errors.Is(err, errNoPrice):
		return q, false, r.Reply(ctx, "No price for "+sym+" right now; every source failed. Try again later.")
	case err != nil:
		return q, false, err
	}
	return q, true, nil
}

func (m *module) cmdPrice(ctx context.Context, r *app.Request) error {
	sym, ok := symbolArg(r.Args)
	if !ok {
		return r.Reply(ctx, "Usage: /coin_price <symbol>, e.g. /coin_price BTC")
	}
	q, ok, err := m.quoteOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	// As many decimals as the price has (small coins need them), at least 2.
	places := max(2, int32(-decimal.RequireFromString(q.Price.String()).Exponent()))
	return r.Reply(ctx, fmt.Sprintf("%s: $%s (%s)", sym, trading.Money(q.Price, places), q.Source))
}

func (m *module) cmdBuy(ctx context.Context, r *app.Request) error {
	f := strings.Fields(r.Args)
	if len(f) != 2 {
		return r.Reply(ctx, "Usage: /coin_buy <symbol> <usd>, e.g. /coin_buy BTC 100")
	}
	sym, ok := symbolArg(f[0])
	if !ok {
		return r.Reply(ctx, "Not a coin symbol: "+f[0]+".")
	}
	amount, err := trading.ParseAmount(f[1], market.CashPlaces, market.MaxCash)
	if err != nil {
		return trading.Refuse(ctx, r, err)
	}
	q, ok, err := m.quoteOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	var qty decimal.Decimal
	p, err := trading.Update(ctx, m.store, r.UserID, func(p *trading.Portfolio) error {
		var err error
		qty, err = p.BuyFor(market, sym, amount, q.Price, m.now())
		return err
	})
	if err != nil {
		return trading.Answer(ctx, r, err)
	}
	paid := p.History[len(p.History)-1].Cash.Neg()
	return r.Reply(ctx, fmt.Sprintf("Bought %s %s at %s for %s. Cash: %s.", trading.Qty(qty), sym, usd(q.Price), usd(paid), usd(p.Cash)))
}

func (m *module) cmdSell(ctx context.Context, r *app.Request) error {
	f := strings.Fields(r.Args)
	if len(f) != 2 {
		return r.Reply(ctx, "Usage: /coin_sell <symbol> <quantity|all>, e.g. /coin_sell BTC 0.5")
	}
	sym, ok := symbolArg(f[0])
	if !ok {
		return r.Reply(ctx, "Not a coin symbol: "+f[0]+".")
	}
	all := strings.EqualFold(f[1], "all")
	var qty decimal.Decimal
	if !all {
		var err error
		if qty, err = trading.ParseAmount(f[1], market.QtyPlaces, decimal.Zero); err != nil {
			return trading.Refuse(ctx, r, err)
		}
	}
	q, ok, err := m.quoteOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	var sold, proceeds decimal.Decimal
	p, err := trading.Update(ctx, m.store, r.UserID, func(p *trading.Portfolio) error {
		var err error
		sold, proceeds, err = p.Sell(market, sym, qty, all, q.Price, m.now())
		return err
	})
	if err != nil {
		return trading.Answer(ctx, r, err)
	}
	return r.Reply(ctx, fmt.Sprintf("Sold %s %s at %s for %s. Cash: %s.", trading.Qty(sold), sym, usd(q.Price), usd(proceeds), usd(p.Cash)))
}

func (m *module) cmdStats(ctx context.Context, r *app.Request) error {
	if strings.TrimSpace(r.Args) != "" {
		return r.Reply(ctx, "You can only see your own portfolio: /coin_stats")
	}
	p, found, err := trading.Load(ctx, m.store, r.UserID)
	if err != nil {
		return err
	}
	if !found {
		return r.Reply(ctx, "No coin portfolio yet. Start with /coin_topup 1000.")
	}
	v := p.Value(market, func(sym string) (decimal.Decimal, bool) {
		q, err := m.price(ctx, sym)
		return q.Price, err == nil
	})
	var b strings.Builder
	for _, l := range v.Lines {
		if l.PriceKnown {
			fmt.Fprintf(&b, "%s %s: %s (cost %s, P/L %s)\n", trading.Qty(l.Qty), l.Symbol, usd(l.Value), usd(l.Cost), usd(l.PL))
		} else {
			fmt.Fprintf(&b, "%s %s: no price now (cost %s)\n", trading.Qty(l.Qty), l.Symbol, usd(l.Cost))
		}
	}
	fmt.Fprintf(&b, "Cash: %s\nTotal: %s (invested %s, P/L %s)", usd(v.Cash), usd(v.Total), usd(v.Invested), usd(v.PL))
	return r.Reply(ctx, b.String())
}
