package trading

import (
	"context"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Refuse answers a refused command, the market's hint (a key of its
// catalog, "" for none) after the reason: "(whole shares)"; the portfolio
// is unchanged.
func Refuse(ctx context.Context, r *app.Request, err error, hint string) error {
	_, err = r.Reply(ctx, r.T("trading.not_done", app.Args{"Why": Why(r.Words, err) + Hint(r.Words, hint)}))
	return err
}

// Hint is a market's hint after a refusal, with its leading space, in w's
// language; "" for none.
func Hint(w app.Words, hint string) string {
	if hint == "" {
		return ""
	}
	return " " + w.T(hint)
}

// TopUp is the /<market>_topup command every market shares: parse the
// amount, add it under CAS, report the cash.
func (d *Desk) TopUp(ctx context.Context, r *app.Request) error {
	amount, err := ParseAmount(r.Lang, strings.TrimSpace(r.Args), d.Market.CashPlaces, d.Market.MaxCash)
	if err != nil {
		return Refuse(ctx, r, err, "")
	}
	return Apply(ctx, d.Quotes.Store, r, func(p *Portfolio) (string, error) {
		if err := p.TopUp(d.Market, amount, d.Quotes.Now()); err != nil {
			return "", err
		}
		return r.T("trading.topped_up", app.Args{"Amount": d.Cash(r.Lang, amount), "Cash": d.Cash(r.Lang, p.Cash)}), nil
	})
}
