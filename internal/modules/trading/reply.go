package trading

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// refusals are errors a user caused: answered, never retried.
var refusals = []error{ErrAmount, ErrPrecision, ErrTooLarge, ErrNoCash, ErrNoHolding, ErrLot, ErrPriceInvalid, ErrBusy}

// Refuse answers a refused command; the portfolio is unchanged.
func Refuse(ctx context.Context, r *app.Request, err error) error {
	_, err = r.Reply(ctx, "Not done: "+err.Error()+".")
	return err
}

// Answer replies to a refused trade and returns any other error, so the
// runtime retries a failure (the store) but not a user's mistake.
func Answer(ctx context.Context, r *app.Request, err error) error {
	for _, e := range refusals {
		if errors.Is(err, e) {
			return Refuse(ctx, r, err)
		}
	}
	return err
}

// TopUp is the /<market>_topup command every market shares: parse the
// amount, add it under CAS, report the cash.
func (d *Desk) TopUp(ctx context.Context, r *app.Request) error {
	amount, err := ParseAmount(strings.TrimSpace(r.Args), d.Market.CashPlaces, d.Market.MaxCash)
	if err != nil {
		return Refuse(ctx, r, err)
	}
	return Apply(ctx, d.Quotes.Store, r, func(p *Portfolio) (string, error) {
		if err := p.TopUp(d.Market, amount, d.Quotes.Now()); err != nil {
			return "", err
		}
		return fmt.Sprintf("Topped up %s. Cash: %s.", d.Money(amount), d.Money(p.Cash)), nil
	})
}
