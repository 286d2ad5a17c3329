package trading

import (
	"context"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Desk is the part of a market's chat commands every market shares: price
// a symbol, change the user's portfolio under CAS at that price, and
// answer in the market's money. Its rules, money, name, first top-up and
// unit are its Kit's. The module parses its own arguments.
type Desk struct {
	*Kit           // the market's declaration
	Quotes *Quotes // its store and clock are the desk's too
	// Values, when set, records portfolios daily and puts a chart button
	// on the stats reply.
	Values *Values
	// Bot, when set, is asked whether a group board's member is still in
	// the group when they look at it (BoardMember).
	Bot    app.Messenger
	Alerts *Alerts // the market's alerts, moved with a chat
	// Texts are the market's words for work no request carries (the Mini
	// App's answers).
	Texts app.Texts
	// Press answers a holding's button at the asking buy or sell.
	Press func(ctx context.Context, c *app.CallbackRequest, kind, arg string) error
}

// UnitOf is how a reply in w's language names a quantity of sym.
func (d *Desk) UnitOf(w app.Words, sym string) string {
	if d.Unit != "" {
		return w.T(d.Unit)
	}
	return sym
}

// Names names, in w's language, the market's own sources ("Binance,
// Coinbase") or those that answer another market's price in this one's
// stead (standIn: "world spot"; "": none).
func (d *Desk) Names(w app.Words, standIn bool) string {
	var names []string
	for _, s := range d.Quotes.Sources {
		if s.StandIn == standIn {
			names = append(names, d.SourceName(w, s.Name))
		}
	}
	return strings.Join(names, ", ")
}

// Buy prices sym and applies buy (Portfolio.BuyFor or BuyQty) at that
// price; buy returns the quantity bought.
func (d *Desk) Buy(ctx context.Context, r *app.Request, sym string, buy func(p *Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error)) error {
	return d.trade(ctx, r, sym, func(*Portfolio) error { return nil }, func(p *Portfolio, q Quote) (string, error) {
		qty, err := buy(p, q.Price, d.Quotes.Now())
		if err != nil {
			return "", err
		}
		paid := p.History[len(p.History)-1].Cash.Neg()
		return r.T("trading.bought", d.tradeArgs(r.Words, sym, qty, q.Price, paid, p.Cash)), nil
	})
}

// Sell prices sym and sells qty of it (all of it when all is true) at what
// a seller gets; a sale the portfolio cannot make is refused without
// asking a price source.
func (d *Desk) Sell(ctx context.Context, r *app.Request, sym string, qty decimal.Decimal, all bool) error {
	return d.trade(ctx, r, sym, func(p *Portfolio) error { return p.CanSell(d.Market, sym, qty, all) }, func(p *Portfolio, q Quote) (string, error) {
		sold, proceeds, err := p.Sell(d.Market, sym, qty, all, q.SellPrice(), d.Quotes.Now())
		if err != nil {
			return "", err
		}
		return r.T("trading.sold", d.tradeArgs(r.Words, sym, sold, q.SellPrice(), proceeds, p.Cash)), nil
	})
}

// tradeArgs are a trade reply's figures in w's language.
func (d *Desk) tradeArgs(w app.Words, sym string, qty, price, cash, left decimal.Decimal) app.Args {
	return app.Args{"Qty": QtyIn(w.Lang, qty), "Unit": d.UnitOf(w, sym), "Price": d.Cash(w.Lang, price),
		"Total": d.Cash(w.Lang, cash), "Cash": d.Cash(w.Lang, left)}
}

// trade is a buy or a sell. An update delivered again whose change already
// landed gets the reply that change earned before anything else is asked:
// a price source down on the redelivery must not tell a user whose buy
// went through to try again, nor a sale be refused for the holding it
// sold. Then check refuses what the portfolio cannot do, sym is priced,
// and change runs at that quote under CAS (where the checks run again).
func (d *Desk) trade(ctx context.Context, r *app.Request, sym string, check func(p *Portfolio) error, change func(p *Portfolio, q Quote) (string, error)) error {
	p, _, err := Load(ctx, d.Quotes.Store, r.UserID)
	if err != nil {
		return err
	}
	if reply, ok := p.Replay(r.UpdateID()); ok {
		_, err := r.Reply(ctx, reply)
		return err
	}
	if err := check(p); err != nil {
		return Refuse(ctx, r, err)
	}
	q, ok, err := d.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	return Apply(ctx, d.Quotes.Store, r, func(p *Portfolio) (string, error) { return change(p, q) })
}

// ShowStats is the stats command: the caller's own portfolio at current
// prices, never anyone else's.
func (d *Desk) ShowStats(ctx context.Context, r *app.Request) error {
	if strings.TrimSpace(r.Args) != "" {
		_, err := r.Reply(ctx, r.T("trading.own_stats_only", app.Args{"Name": d.Name}))
		return err
	}
	body, found, err := d.Stats(ctx, r.Words, r.UserID)
	switch {
	case err != nil:
		return err
	case !found:
		_, err := r.Reply(ctx, body)
		return err
	}
	_, err = r.ReplyKeyboard(ctx, body, d.statsKeyboard(r.Words, r.UserID))
	return err
}
