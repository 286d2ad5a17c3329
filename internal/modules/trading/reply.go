package trading

import (
	"context"
	"errors"

	"github.com/miti99bot/miti99bot/internal/app"
)

// refusals are errors a user caused: answered, never retried.
var refusals = []error{ErrAmount, ErrPrecision, ErrTooLarge, ErrNoCash, ErrNoHolding, ErrLot, ErrPriceInvalid, ErrBusy}

// Refuse answers a refused command; the portfolio is unchanged.
func Refuse(ctx context.Context, r *app.Request, err error) error {
	return r.Reply(ctx, "Not done: "+err.Error()+".")
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
