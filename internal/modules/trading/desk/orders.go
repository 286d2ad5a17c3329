package desk

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// parse reads s as a's amount in m; all takes "all" (or the reader's
// word for it, allWord) as every unit held.
func parse(lang app.Lang, a trading.OrderAmount, m trading.Market, s string, all bool, allWord string) (amount decimal.Decimal, isAll bool, err error) {
	if all && (strings.EqualFold(s, "all") || strings.EqualFold(s, allWord)) {
		return decimal.Zero, true, nil
	}
	places := m.QtyPlaces
	if a.Cash {
		places = m.CashPlaces
	}
	amount, err = trading.ParseAmount(lang, s, places, a.Max)
	return amount, false, err
}

// Order is a command's "<SYM> <amount>" as read.
type Order struct {
	Sym    string
	Amount decimal.Decimal
	All    bool // every unit held
}

// Read reads "/<name>_<verb> <SYM> <amount>" (the amount alone in a
// market of one symbol) at d, or answers what is wrong with it (ok false;
// err is then the reply's error). all takes "all" for an amount.
func Read(ctx context.Context, r *app.Request, d *trading.Desk, verb string, a trading.OrderAmount, all bool) (o Order, ok bool, err error) {
	k := d.Kit
	arg := strings.TrimSpace(r.Args)
	o.Sym = k.Only
	if k.Symbol != nil {
		f := strings.Fields(r.Args)
		if all && len(f) > 2 && strings.EqualFold(strings.Join(f[1:], " "), r.T("trading.all")) {
			f = []string{f[0], "all"} // the reader's word for it may be two ("tất cả")
		}
		if len(f) != 2 {
			_, err = r.Reply(ctx, r.T("trading.usage_order", app.Args{"Command": k.Name + "_" + verb, "Symbol": r.T(k.SymbolArg),
				"Amount": r.T(a.Arg), "Example": k.Example + " " + a.Example}))
			return o, false, err
		}
		if o.Sym, ok = k.Symbol(f[0]); !ok {
			_, err = r.Reply(ctx, r.T("not_symbol", app.Args{"Arg": app.Quote(f[0])}))
			return o, false, err
		}
		arg = f[1]
	}
	if o.Amount, o.All, err = parse(r.Lang, a, k.Market, arg, all, r.T("trading.all")); err != nil {
		return o, false, trading.Refuse(ctx, r, err, a.Hint)
	}
	return o, true, nil
}

// PriceCommand is /<name>_price [SYM]: the price, with a refresh button.
func (o *Orders) PriceCommand(ctx context.Context, r *app.Request) error {
	d, k := o.Desk, o.Desk.Kit
	sym := k.Only
	if k.Symbol != nil {
		var ok bool
		if sym, ok = k.Symbol(r.Args); !ok {
			_, err := r.Reply(ctx, r.T("trading.usage_price", app.Args{"Command": k.Name + "_price", "Symbol": r.T(k.SymbolArg), "Example": k.Example}))
			return err
		}
	}
	q, ok, err := d.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, k.PriceText(r.Words, sym, q), d.PriceKeyboard(r.Words, sym))
	return err
}

// buy buys for an amount of cash or a quantity, as the kit says, at the
// price a buyer pays.
func (o *Orders) buy(ctx context.Context, r *app.Request) error {
	d, k := o.Desk, o.Desk.Kit
	order, ok, err := Read(ctx, r, d, "buy", k.Buy, false)
	if !ok {
		return err
	}
	return o.trade(ctx, r, order.Sym, func(*trading.Portfolio) error { return nil }, func(p *trading.Portfolio, q trading.Quote) (string, error) {
		qty, err := order.Amount, error(nil)
		if k.Buy.Cash {
			qty, err = p.BuyFor(k.Market, order.Sym, order.Amount, q.Price, d.Quotes.Now())
		} else {
			err = p.BuyQty(k.Market, order.Sym, qty, q.Price, d.Quotes.Now())
		}
		if err != nil {
			return "", err
		}
		paid := p.History[len(p.History)-1].Cash.Neg()
		return r.T("trading.bought", o.tradeArgs(r.Words, order.Sym, qty, q.Price, paid, p.Cash)), nil
	})
}

// sell sells a quantity, or all, at the price a seller gets; a sale the
// portfolio cannot make is refused without asking a price source.
func (o *Orders) sell(ctx context.Context, r *app.Request) error {
	d := o.Desk
	order, ok, err := Read(ctx, r, d, "sell", d.Kit.Sell, true)
	if !ok {
		return err
	}
	check := func(p *trading.Portfolio) error { return p.CanSell(d.Market, order.Sym, order.Amount, order.All) }
	return o.trade(ctx, r, order.Sym, check, func(p *trading.Portfolio, q trading.Quote) (string, error) {
		sold, proceeds, err := p.Sell(d.Market, order.Sym, order.Amount, order.All, q.SellPrice(), d.Quotes.Now())
		if err != nil {
			return "", err
		}
		return r.T("trading.sold", o.tradeArgs(r.Words, order.Sym, sold, q.SellPrice(), proceeds, p.Cash)), nil
	})
}

// tradeArgs are a trade reply's figures in w's language.
func (o *Orders) tradeArgs(w app.Words, sym string, qty, price, cash, left decimal.Decimal) app.Args {
	d := o.Desk
	return app.Args{"Qty": trading.QtyIn(w.Lang, qty), "Unit": d.UnitOf(w, sym), "Price": d.Cash(w.Lang, price),
		"Total": d.Cash(w.Lang, cash), "Cash": d.Cash(w.Lang, left)}
}

// trade is a buy or a sell. An update delivered again whose change already
// landed gets the reply that change earned before anything else is asked:
// a price source down on the redelivery must not tell a user whose buy
// went through to try again, nor a sale be refused for the holding it
// sold. Then check refuses what the portfolio cannot do, sym is priced,
// and change runs at that quote under CAS (where the checks run again).
func (o *Orders) trade(ctx context.Context, r *app.Request, sym string, check func(p *trading.Portfolio) error, change func(p *trading.Portfolio, q trading.Quote) (string, error)) error {
	d := o.Desk
	p, _, err := trading.Load(ctx, d.Quotes.Store, r.UserID)
	if err != nil {
		return err
	}
	if reply, ok := p.Replay(r.UpdateID()); ok {
		_, err := r.Reply(ctx, reply)
		return err
	}
	if err := check(p); err != nil {
		return trading.Refuse(ctx, r, err, "")
	}
	q, ok, err := d.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	return trading.Apply(ctx, d.Quotes.Store, r, func(p *trading.Portfolio) (string, error) { return change(p, q) })
}
