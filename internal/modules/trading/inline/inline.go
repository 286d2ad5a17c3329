// Package inline is a market's answers in inline mode: price cards for a
// symbol, and the user's own portfolio for the empty query.
package inline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// Cards are d's price cards: `@bot BTC` typed in any chat offers the
// symbol's card (price, source, the change since the day's first price,
// the time, and the command that draws its chart) to send there. A card
// is a text message: a chart as a photo result would need the picture at
// a public URL or already on Telegram (a file_id), and drawing one per
// keystroke is no answer within Telegram's seconds. The price comes from
// the market's quote cache, so a burst of queries costs the providers one
// fetch per symbol per Quotes.Fresh.
func Cards(d *trading.Desk) app.Inline {
	read := d.Kit.Inline
	if read == nil {
		read = d.Kit.Symbol
	}
	return app.Inline{
		Match: func(q string) bool { _, ok := read(q); return ok },
		Handler: func(ctx context.Context, r *app.InlineRequest) ([]app.InlineResult, error) {
			return card(ctx, d, r.Words, read, r.Query)
		},
		CacheTime: d.Quotes.Fresh,
		HelpKey:   "inline.card", // each market's own
	}
}

func card(ctx context.Context, d *trading.Desk, w app.Words, read func(string) (string, bool), query string) ([]app.InlineResult, error) {
	sym, ok := read(query)
	if !ok {
		return nil, nil
	}
	q, err := d.Quotes.Price(ctx, sym)
	switch {
	case errors.Is(err, trading.ErrUnknownSymbol):
		return nil, nil // not this market's: another market may know it
	case err != nil:
		return nil, fmt.Errorf("%s card %s: %w", d.Name, sym, err)
	}
	price := d.Kit.PriceText(w, sym, q)
	lines := []string{price}
	if open, ok := d.Quotes.DayOpen(ctx, sym, q); ok {
		lines = append(lines, trading.Move(w, open, q, func(x decimal.Decimal) string { return d.Cash(w.Lang, x) }))
	}
	lines = append(lines, w.T("trading.price_at", app.Args{"At": trading.Moment(w, q.At)}))
	if chart := trading.KeyOr(w, d.Kit.ChartHint, "/"+d.Name+"_chart "+sym); chart != "" {
		lines = append(lines, w.T("trading.chart_hint", app.Args{"Command": chart}))
	}
	first, _, _ := strings.Cut(price, "\n")
	return []app.InlineResult{{
		ID: sym, Title: w.T("trading.card_title", app.Args{"Market": w.T("market"), "Sym": sym}), Description: first,
		Text: strings.Join(lines, "\n"), NoPreview: true,
	}}, nil
}

// Summary answers the empty inline query with the user's own portfolio
// in d's market, at current prices, to send as theirs: personal (Telegram
// shows it to no one else), and nothing for a user with none.
func Summary(d *trading.Desk) app.Inline {
	return app.Inline{
		Match:     func(q string) bool { return q == "" },
		Personal:  true,
		CacheTime: d.Quotes.Fresh,
		HelpKey:   "inline.summary", // each market's own
		Handler: func(ctx context.Context, r *app.InlineRequest) ([]app.InlineResult, error) {
			body, found, err := d.Stats(ctx, r.Words, r.UserID)
			if err != nil || !found {
				return nil, err
			}
			total := body[strings.LastIndex(body, "\n")+1:]
			return []app.InlineResult{{
				ID: "portfolio", Title: r.T("trading.my_portfolio", app.Args{"Market": r.T("noun")}), Description: total,
				Text: r.T("trading.my_portfolio", app.Args{"Market": r.T("noun")}) + ":\n" + body,
			}}, nil
		},
	}
}
