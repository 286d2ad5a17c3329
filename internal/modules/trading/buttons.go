package trading

import (
	"context"
	"errors"

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

// NotYoursToast answers a press on someone else's portfolio, in English;
// its key is notYours.
const NotYoursToast = "This is someone else's portfolio: your own is one command away."

const notYours = "trading.not_yours"

func (d *Desk) prefix() string { return d.Name + ":" }

// refreshButton is a reply's refresh button in w's language.
func (d *Desk) refreshButton(w app.Words, kind, arg string) app.Button {
	return app.Button{Text: w.T("trading.refresh"), Data: app.Data(d.prefix(), kind, arg)}
}

// PriceKeyboard is a price reply's keyboard.
func (d *Desk) PriceKeyboard(w app.Words, sym string) *models.InlineKeyboardMarkup {
	// Symbols are checked by the commands; a test covers the longest.
	return app.MustKeyboard([]app.Button{d.refreshButton(w, kindPrice, sym)})
}

// Callback is the desk's button handler, for the module's Callbacks. A
// price button's symbol is read as the commands read one (Kit.Read):
// callback data comes from a client.
func (d *Desk) Callback() app.Callback {
	return app.Callback{Prefix: d.prefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		data, err := app.ParseCallback(d.prefix(), req.Data, 2, 2)
		if err != nil {
			return req.Answer(ctx, req.T(app.StaleButton))
		}
		switch data.Fields[0] {
		case kindPrice:
			sym, ok := d.Read(data.Fields[1])
			if !ok {
				return req.Answer(ctx, req.T(app.StaleButton))
			}
			q, err := d.Quotes.Price(ctx, sym)
			switch {
			case errors.Is(err, ErrUnknownSymbol), errors.Is(err, ErrNoPrice):
				return req.Answer(ctx, req.T("trading.no_price_toast", app.Args{"Sym": sym}))
			case err != nil:
				return err
			}
			return req.Edit(ctx, d.PriceText(req.Words, sym, q), d.PriceKeyboard(req.Words, sym))
		case kindStats:
			owner, err := data.Int(1)
			if err != nil {
				return req.Answer(ctx, req.T(app.StaleButton))
			}
			if mine, err := req.ActsFor(ctx, owner); err != nil {
				return err
			} else if !mine {
				return req.Answer(ctx, req.T(notYours))
			}
			body, found, err := d.Stats(ctx, req.Words, owner)
			if err != nil {
				return err
			}
			kb := d.statsKeyboard(req.Words, owner)
			if !found {
				kb = nil
			}
			return req.Edit(ctx, body, kb)
		default:
			if d.Press != nil {
				return d.Press(ctx, req, data.Fields[0], data.Fields[1])
			}
		}
		return req.Answer(ctx, req.T(app.StaleButton))
	}}
}

// Stats is a user's portfolio report at current prices in w's language,
// or, found false, how to start one.
func (d *Desk) Stats(ctx context.Context, w app.Words, user int64) (text string, found bool, err error) {
	p, found, err := Load(ctx, d.Quotes.Store, user)
	switch {
	case err != nil:
		return "", false, err
	case !found:
		return d.NoPortfolio(w), false, nil
	}
	return d.report(w, p.Value(d.Market, d.Quotes.Known(ctx))), true, nil
}

// NoPortfolio says how to start a portfolio, in w's language.
func (d *Desk) NoPortfolio(w app.Words) string {
	return w.T("trading.no_portfolio", app.Args{"Name": d.Name, "Market": w.T("noun"), "Start": d.Start})
}
