package desk

import (
	"context"
	"strings"
	"time"

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
		return o, false, trading.RefuseHint(ctx, r, err, a.Hint)
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

// buyCommand buys for an amount of cash or a quantity, as the kit says,
// at the price a buyer pays.
func (o *Orders) buy(ctx context.Context, r *app.Request) error {
	d, k := o.Desk, o.Desk.Kit
	order, ok, err := Read(ctx, r, d, "buy", k.Buy, false)
	if !ok {
		return err
	}
	return d.Buy(ctx, r, order.Sym, func(p *trading.Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error) {
		if k.Buy.Cash {
			return p.BuyFor(k.Market, order.Sym, order.Amount, price, now)
		}
		return order.Amount, p.BuyQty(k.Market, order.Sym, order.Amount, price, now)
	})
}

// sellCommand sells a quantity, or all, at the price a seller gets.
func (o *Orders) sell(ctx context.Context, r *app.Request) error {
	order, ok, err := Read(ctx, r, o.Desk, "sell", o.Desk.Kit.Sell, true)
	if !ok {
		return err
	}
	return o.Desk.Sell(ctx, r, order.Sym, order.Amount, order.All)
}
