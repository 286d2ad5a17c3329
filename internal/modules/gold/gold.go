// Package gold is paper trading of SJC gold in VND, by the luong (37.5 g)
// to the chi (a tenth): SJC buy/sell prices from VNAppMob, falling back to
// world spot converted at the day's USD/VND rate. Buying pays the sell
// price; selling gets the buy price.
package gold

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "gold"

// Settings.
const (
	settingVNAppMob = "VNAPPMOB_API_URL"
	settingERAPI    = "EXCHANGE_RATE_API_URL"
)

// Factory registers the module.
var Factory = app.Factory{
	Name: Name,
	Settings: []app.Setting{
		{Name: settingVNAppMob, Default: "https://api.vnappmob.com", Help: "gold: VNAppMob API (SJC prices)"},
		{Name: settingERAPI, Default: "https://open.er-api.com", Help: "gold: ExchangeRate-API open rates (world spot fallback)"},
	},
	New: New,
}

// The symbol the engine keeps gold under.
const symbol = "SJC"

var market = trading.Market{
	CashPlaces: 0, QtyPlaces: 1, // VND; luong to the chi
	MaxCash: decimal.NewFromInt(1_000_000_000_000), HistorySize: 50,
}

// priceFresh is how long a quote is reused from the store.
const priceFresh = time.Minute

type module struct {
	store           storage.KVStore
	log             *slog.Logger
	now             func() time.Time
	http            *http.Client
	vnappmob, erAPI string
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	m := &module{store: d.Store, log: d.Log, now: d.Now, http: d.HTTP}
	var err1, err2 error
	m.vnappmob, err1 = trading.CheckURL(settingVNAppMob, d.Settings[settingVNAppMob])
	m.erAPI, err2 = trading.CheckURL(settingERAPI, d.Settings[settingERAPI])
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	return &app.Module{
		Name: Name,
		Commands: []app.Command{
			{Name: "gold_price", Description: "SJC gold buy/sell price in VND per luong", Handler: m.cmdPrice},
			{Name: "gold_topup", Description: "Add paper VND: /gold_topup 100000000", Handler: trading.TopUpHandler(market, m.store, m.now, vnd)},
			{Name: "gold_buy", Description: "Buy gold by the luong: /gold_buy 0.5", Handler: m.cmdBuy},
			{Name: "gold_sell", Description: "Sell gold: /gold_sell 0.5 (or all)", Handler: m.cmdSell},
			{Name: "gold_stats", Description: "Your gold portfolio and profit/loss", Handler: m.cmdStats},
		},
	}, nil
}

var errNoPrice = errors.New("no gold price source answered")

// price returns a fresh cached quote, else SJC, else world spot.
func (m *module) price(ctx context.Context) (quote, error) {
	var q quote
	if err := m.store.GetJSON(ctx, "price", &q); err == nil && m.now().Sub(q.At) < priceFresh {
		return q, nil
	}
	q, err := m.sjc(ctx)
	if err != nil {
		m.log.Warn("gold: SJC price failed; trying world spot", "err", err)
		if q, err = m.spot(ctx); err != nil {
			m.log.Warn("gold: world spot failed", "err", err)
			return q, errNoPrice
		}
	}
	if err := m.store.PutJSON(ctx, "price", q); err != nil {
		m.log.Warn("gold: price not cached", "err", err)
	}
	return q, nil
}

func vnd(d decimal.Decimal) string { return trading.Money(d, 0) + " VND" }

func (m *module) quoteOrReply(ctx context.Context, r *app.Request) (quote, bool, error) {
	q, err := m.price(ctx)
	if errors.Is(err, errNoPrice) {
		return q, false, r.Reply(ctx, "No gold price right now; every source failed. Try again later.")
	}
	return q, err == nil, err
}

func (m *module) cmdPrice(ctx context.Context, r *app.Request) error {
	q, ok, err := m.quoteOrReply(ctx, r)
	if !ok {
		return err
	}
	text := fmt.Sprintf("Gold per luong: buy %s, sell %s (%s)", vnd(q.Buy), vnd(q.Sell), q.Source)
	if q.Note != "" {
		text += "\n" + q.Note
	}
	return r.Reply(ctx, text)
}

func (m *module) cmdBuy(ctx context.Context, r *app.Request) error {
	qty, err := trading.ParseAmount(strings.TrimSpace(r.Args), market.QtyPlaces, decimal.NewFromInt(10_000))
	if err != nil {
		return trading.Refuse(ctx, r, fmt.Errorf("%w (luong, to the chi: e.g. 0.5)", err))
	}
	q, ok, err := m.quoteOrReply(ctx, r)
	if !ok {
		return err
	}
	p, err := trading.Update(ctx, m.store, r.UserID, func(p *trading.Portfolio) error {
		return p.BuyQty(market, symbol, qty, q.Sell, m.now()) // the shop sells at its sell price
	})
	if err != nil {
		return trading.Answer(ctx, r, err)
	}
	paid := p.History[len(p.History)-1].Cash.Neg()
	return r.Reply(ctx, fmt.Sprintf("Bought %s luong at %s for %s. Cash: %s.", trading.Qty(qty), vnd(q.Sell), vnd(paid), vnd(p.Cash)))
}

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
	q, ok, err := m.quoteOrReply(ctx, r)
	if !ok {
		return err
	}
	var sold, proceeds decimal.Decimal
	p, err := trading.Update(ctx, m.store, r.UserID, func(p *trading.Portfolio) error {
		var err error
		sold, proceeds, err = p.Sell(market, symbol, qty, all, q.Buy, m.now()) // and buys back at its buy price
		return err
	})
	if err != nil {
		return trading.Answer(ctx, r, err)
	}
	return r.Reply(ctx, fmt.Sprintf("Sold %s luong at %s for %s. Cash: %s.", trading.Qty(sold), vnd(q.Buy), vnd(proceeds), vnd(p.Cash)))
}

func (m *module) cmdStats(ctx context.Context, r *app.Request) error {
	if strings.TrimSpace(r.Args) != "" {
		return r.Reply(ctx, "You can only see your own portfolio: /gold_stats")
	}
	p, found, err := trading.Load(ctx, m.store, r.UserID)
	if err != nil {
		return err
	}
	if !found {
		return r.Reply(ctx, "No gold portfolio yet. Start with /gold_topup 100000000.")
	}
	v := p.Value(market, func(string) (decimal.Decimal, bool) {
		q, err := m.price(ctx)
		return q.Buy, err == nil // what selling now would bring
	})
	var b strings.Builder
	for _, l := range v.Lines {
		fmt.Fprintf(&b, "%s luong: %s (cost %s, P/L %s)\n", trading.Qty(l.Qty), vnd(l.Value), vnd(l.Cost), vnd(l.PL))
	}
	fmt.Fprintf(&b, "Cash: %s\nTotal: %s (invested %s, P/L %s)", vnd(v.Cash), vnd(v.Total), vnd(v.Invested), vnd(v.PL))
	return r.Reply(ctx, b.String())
}
