package trading

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
)

// OrderAmount is how a command reads its amount and asks for it.
type OrderAmount struct {
	Cash    bool            // an amount of cash (the market's cash places); else a quantity
	Max     decimal.Decimal // zero: no bound
	Arg     string          // its name in the usage line: "usd"
	Example string          // in the usage line: "100"
	Hint    string          // said after a refusal: "(whole shares)"
	Ask     string          // the question when it is asked: "How much USD? e.g. 100"
}

// parse reads s; all takes "all" as every unit held.
func (a OrderAmount) parse(m Market, s string, all bool) (amount decimal.Decimal, isAll bool, err error) {
	if all && strings.EqualFold(s, "all") {
		return decimal.Zero, true, nil
	}
	places := m.QtyPlaces
	if a.Cash {
		places = m.CashPlaces
	}
	if amount, err = ParseAmount(s, places, a.Max); err != nil && a.Hint != "" {
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

// Order reads "/<name>_<verb> <SYM> <amount>" (the amount alone in a
// market of one symbol), or answers what is wrong with it (ok false; err
// is then the reply's error). all takes "all" for an amount.
func (d *Desk) Order(ctx context.Context, r *app.Request, verb string, a OrderAmount, all bool) (o Order, ok bool, err error) {
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
			_, err = r.Reply(ctx, "Not a "+d.what()+": "+app.Quote(f[0])+".")
			return o, false, err
		}
		arg = f[1]
	}
	if o.Amount, o.All, err = a.parse(k.Market, arg, all); err != nil {
		return o, false, Refuse(ctx, r, err)
	}
	return o, true, nil
}

// what a symbol is called in replies: "coin symbol", "ticker".
func (d *Desk) what() string {
	if d.Kit.Noun == "ticker" {
		return "ticker"
	}
	return d.Kit.Noun + " symbol"
}

// PriceCommand is /<name>_price [SYM]: the price, with a refresh button.
func (d *Desk) PriceCommand(ctx context.Context, r *app.Request) error {
	k := d.Kit
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
func (d *Desk) buyCommand(ctx context.Context, r *app.Request) error {
	k := d.Kit
	o, ok, err := d.Order(ctx, r, "buy", k.Buy, false)
	if !ok {
		return err
	}
	return d.Buy(ctx, r, o.Sym, func(p *Portfolio, price decimal.Decimal, now time.Time) (decimal.Decimal, error) {
		if k.Buy.Cash {
			return p.BuyFor(k.Market, o.Sym, o.Amount, price, now)
		}
		return o.Amount, p.BuyQty(k.Market, o.Sym, o.Amount, price, now)
	})
}

// sellCommand sells a quantity, or all, at the price a seller gets.
func (d *Desk) sellCommand(ctx context.Context, r *app.Request) error {
	o, ok, err := d.Order(ctx, r, "sell", d.Kit.Sell, true)
	if !ok {
		return err
	}
	return d.Sell(ctx, r, o.Sym, o.Amount, o.All)
}
