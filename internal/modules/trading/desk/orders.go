package desk

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// parse reads s as a's amount in m; all takes "all" as every unit held.
func parse(a trading.OrderAmount, m trading.Market, s string, all bool) (amount decimal.Decimal, isAll bool, err error) {
	if all && strings.EqualFold(s, "all") {
		return decimal.Zero, true, nil
	}
	places := m.QtyPlaces
	if a.Cash {
		places = m.CashPlaces
	}
	if amount, err = trading.ParseAmount(s, places, a.Max); err != nil && a.Hint != "" {
		err = fmt.Errorf("%w %s", err, a.Hint)
	}
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
		if len(f) != 2 {
			_, err = r.Reply(ctx, fmt.Sprintf("Usage: /%s_%s <%s> <%s>, e.g. /%s_%s %s %s", k.Name, verb, k.SymbolArg, a.Arg, k.Name, verb, k.Example, a.Example))
			return o, false, err
		}
		if o.Sym, ok = k.Symbol(f[0]); !ok {
			_, err = r.Reply(ctx, "Not a "+what(d.Kit)+": "+app.Quote(f[0])+".")
			return o, false, err
		}
		arg = f[1]
	}
	if o.Amount, o.All, err = parse(a, k.Market, arg, all); err != nil {
		return o, false, trading.Refuse(ctx, r, err)
	}
	return o, true, nil
}

// what a symbol is called in replies: "coin symbol", "ticker".
func what(k *trading.Kit) string {
	if k.Noun == "ticker" {
		return "ticker"
	}
	return k.Noun + " symbol"
}

// PriceCommand is /<name>_price [SYM]: the price, with a refresh button.
func (o *Orders) PriceCommand(ctx context.Context, r *app.Request) error {
	d, k := o.Desk, o.Desk.Kit
	sym := k.Only
	if k.Symbol != nil {
		var ok bool
		if sym, ok = k.Symbol(r.Args); !ok {
			_, err := r.Reply(ctx, fmt.Sprintf("Usage: /%s_price <%s>, e.g. /%s_price %s", k.Name, k.SymbolArg, k.Name, k.Example))
			return err
		}
	}
	q, ok, err := d.Quotes.PriceOrReply(ctx, r, sym)
	if !ok {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, k.PriceText(sym, q), d.PriceKeyboard(sym))
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
