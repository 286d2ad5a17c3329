package trading

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// A desk's buttons (app.CallbackData): "<name>:p:<SYM>" refreshes a price
// reply and "<name>:s:<user id>" a portfolio reply, each edited in place. A refresh
// goes through the quote cache (Quotes.Fresh), so tapping it again and
// again costs the price sources nothing more than commands would. Any
// other kind is a holding's button at the asking buy or sell (Press).
const (
	kindPrice = "p"
	kindStats = "s"
)

// NotYoursToast answers a press on someone else's portfolio.
const NotYoursToast = "This is someone else's portfolio: your own is one command away."

func (d *Desk) prefix() string { return d.Name + ":" }

func (d *Desk) refresh(kind, arg string) *models.InlineKeyboardMarkup {
	// Symbols are checked by the commands; a test covers the longest.
	return app.MustKeyboard([]app.Button{{Text: "🔄 Refresh", Data: app.Data(d.prefix(), kind, arg)}})
}

// PriceKeyboard is a price reply's keyboard.
func (d *Desk) PriceKeyboard(sym string) *models.InlineKeyboardMarkup {
	return d.refresh(kindPrice, sym)
}

// Callback is the desk's button handler, for the module's Callbacks. A
// price button's symbol is read as the commands read one (Kit.Read):
// callback data comes from a client.
func (d *Desk) Callback() app.Callback {
	return app.Callback{Prefix: d.prefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		data, err := app.ParseCallback(d.prefix(), req.Data, 2, 2)
		if err != nil {
			return req.Answer(ctx, app.StaleButtonToast)
		}
		switch data.Fields[0] {
		case kindPrice:
			sym, ok := d.Read(data.Fields[1])
			if !ok {
				return req.Answer(ctx, app.StaleButtonToast)
			}
			q, err := d.Quotes.Price(ctx, sym)
			switch {
			case errors.Is(err, ErrUnknownSymbol), errors.Is(err, ErrNoPrice):
				return req.Answer(ctx, "No price for "+sym+" right now. Try again later.")
			case err != nil:
				return err
			}
			return req.Edit(ctx, d.PriceText(sym, q), d.PriceKeyboard(sym))
		case kindStats:
			owner, err := data.Int(1)
			if err != nil {
				return req.Answer(ctx, app.StaleButtonToast)
			}
			if mine, err := req.ActsFor(ctx, owner); err != nil {
				return err
			} else if !mine {
				return req.Answer(ctx, NotYoursToast)
			}
			body, found, err := d.Stats(ctx, owner)
			if err != nil {
				return err
			}
			kb := d.statsKeyboard(owner)
			if !found {
				kb = nil
			}
			return req.Edit(ctx, body, kb)
		default:
			if d.Press != nil {
				return d.Press(ctx, req, data.Fields[0], data.Fields[1])
			}
		}
		return req.Answer(ctx, app.StaleButtonToast)
	}}
}

// Stats is a user's portfolio report at current prices, or, found false,
// how to start one.
func (d *Desk) Stats(ctx context.Context, user int64) (text string, found bool, err error) {
	p, found, err := Load(ctx, d.Quotes.Store, user)
	switch {
	case err != nil:
		return "", false, err
	case !found:
		return fmt.Sprintf("No %s portfolio yet. Start with /%s_topup %s.", d.Name, d.Name, d.Start), false, nil
	}
	return report(p.Value(d.Market, d.Quotes.Known(ctx)), d.Money, d.UnitOf), true, nil
}
