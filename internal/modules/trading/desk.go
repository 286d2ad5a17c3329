package trading

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Desk is the part of a market's chat commands every market shares: price
// a symbol, change the user's portfolio under CAS at that price, and
// answer in the market's money. The module parses its own arguments.
type Desk struct {
	Market Market
	Quotes *Quotes // its store and clock are the desk's too
	Money  func(decimal.Decimal) string
	Name   string // the commands' prefix: "coin"
	Start  string // a first top-up to suggest: "1000"
	// Unit names a quantity in replies ("luong"); empty: the symbol.
	Unit string
	// Values, when set, records portfolios daily and puts a chart button
	// on the stats reply.
	Values *Values
	alerts *Alerts // set by Alerts.Track
}

// unit is how a reply names a quantity of sym.
func (d *Desk) unit(sym string) string {
	if d.Unit != "" {
		return d.Unit
	}
	return sym
}

// Buy prices sym and applies buy (Portfolio.BuyFor or BuyQty) at that
// price; buy returns the quantity bought.
func (d *Desk) Buy(ctx context.Context, r *app.Request, sym string, buy func(p *Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error)) error {
	q, ok, err := d.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	return Apply(ctx, d.Quotes.Store, r, func(p *Portfolio) (string, error) {
		qty, err := buy(p, q.Price, d.Quotes.Now())
		if err != nil {
			return "", err
		}
		paid := p.History[len(p.History)-1].Cash.Neg()
		return fmt.Sprintf("Bought %s %s at %s for %s. Cash: %s.", Qty(qty), d.unit(sym), d.Money(q.Price), d.Money(paid), d.Money(p.Cash)), nil
	})
}

// Sell prices sym and sells qty of it (all of it when all is true) at what
// a seller gets.
func (d *Desk) Sell(ctx context.Context, r *app.Request, sym string, qty decimal.Decimal, all bool) error {
	if done, err := d.sellRefused(ctx, r, sym, qty, all); done || err != nil {
		return err
	}
	q, ok, err := d.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	return Apply(ctx, d.Quotes.Store, r, func(p *Portfolio) (string, error) {
		sold, proceeds, err := p.Sell(d.Market, sym, qty, all, q.SellPrice(), d.Quotes.Now())
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Sold %s %s at %s for %s. Cash: %s.", Qty(sold), d.unit(sym), d.Money(q.SellPrice()), d.Money(proceeds), d.Money(p.Cash)), nil
	})
}

// sellRefused answers, without asking a price source, a sale the
// portfolio cannot make (done true). An update delivered again whose sale
// already landed is not refused for the holding it sold: it gets the reply
// its sale earned. What passes here is checked again under CAS at the price.
func (d *Desk) sellRefused(ctx context.Context, r *app.Request, sym string, qty decimal.Decimal, all bool) (done bool, err error) {
	p, _, err := Load(ctx, d.Quotes.Store, r.UserID)
	if err != nil {
		return false, err
	}
	if reply, ok := p.Replay(r.UpdateID()); ok {
		return true, r.Reply(ctx, reply)
	}
	if err := p.CanSell(d.Market, sym, qty, all); err != nil {
		return true, Refuse(ctx, r, err)
	}
	return false, nil
}

// ShowStats is the stats command: the caller's own portfolio at current
// prices, never anyone else's.
func (d *Desk) ShowStats(ctx context.Context, r *app.Request) error {
	if strings.TrimSpace(r.Args) != "" {
		return r.Reply(ctx, "You can only see your own portfolio: /"+d.Name+"_stats")
	}
	body, found, err := d.stats(ctx, r.UserID)
	switch {
	case err != nil:
		return err
	case !found:
		return r.Reply(ctx, body)
	}
	return r.ReplyKeyboard(ctx, body, d.statsKeyboard(r.UserID))
}

// SellArg reads a sell quantity: "all", or a positive amount within the
// market's quantity precision.
func (d *Desk) SellArg(s string) (qty decimal.Decimal, all bool, err error) {
	if strings.EqualFold(s, "all") {
		return decimal.Zero, true, nil
	}
	qty, err = ParseAmount(s, d.Market.QtyPlaces, decimal.Zero)
	return qty, false, err
}
