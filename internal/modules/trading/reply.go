package trading

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
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

// TopUpHandler is the /<market>_topup command every market shares: parse
// the amount, add it under CAS, report the cash.
func TopUpHandler(m Market, store storage.KVStore, now func() time.Time, money func(decimal.Decimal) string) func(context.Context, *app.Request) error {
	return func(ctx context.Context, r *app.Request) error {
		amount, err := ParseAmount(strings.TrimSpace(r.Args), m.CashPlaces, m.MaxCash)
		if err != nil {
			return Refuse(ctx, r, err)
		}
		return Apply(ctx, store, r, func(p *Portfolio) (string, error) {
			if err := p.TopUp(m, amount, now()); err != nil {
				return "", err
			}
			return fmt.Sprintf("Topped up %s. Cash: %s.", money(amount), money(p.Cash)), nil
		})
	}
}
