package trading

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Cards are a market's price cards in inline mode: `@bot BTC` typed in any
// chat offers the symbol's card (price, source, the change since the
// day's first price, the time, and the command that draws its chart) to
// send there. A card is a text message: a chart as a photo result would
// need the picture at a public URL or already on Telegram (a file_id),
// and drawing one per keystroke is no answer within Telegram's seconds.
// The price comes from the market's quote cache, so a burst of queries
// costs the providers one fetch per symbol per Quotes.Fresh.
type Cards struct {
	Desk *Desk
	// Market names the card's market in the results list: "Coin".
	Market string
	// Symbol reads a query as one of the market's symbols.
	Symbol func(query string) (sym string, ok bool)
	// Text is the price line, as /<market>_price writes it.
	Text func(sym string, q Quote) string
	// Chart is the command that draws sym's chart ("": none).
	Chart func(sym string) string
	// Help is the cards' line in /help (app.Inline.Help).
	Help string
}

// Inline is the cards' answer to inline queries.
func (c *Cards) Inline() app.Inline {
	return app.Inline{
		Match:     func(q string) bool { _, ok := c.Symbol(q); return ok },
		Handler:   c.answer,
		CacheTime: c.Desk.Quotes.Fresh,
		Help:      c.Help,
	}
}

func (c *Cards) answer(ctx context.Context, r *app.InlineRequest) ([]app.InlineResult, error) {
	sym, ok := c.Symbol(r.Query)
	if !ok {
		return nil, nil
	}
	q, err := c.Desk.Quotes.Price(ctx, sym)
	switch {
	case errors.Is(err, ErrUnknownSymbol):
		return nil, nil // not this market's: another market may know it
	case err != nil:
		return nil, fmt.Errorf("%s card %s: %w", c.Desk.Name, sym, err)
	}
	price := c.Text(sym, q)
	lines := []string{price}
	if open, ok := c.Desk.Quotes.DayOpen(ctx, sym, q); ok {
		lines = append(lines, Move(open, q, c.Desk.Money))
	}
	lines = append(lines, "Price at "+q.At.UTC().Format("15:04 MST, 02 Jan 2006"))
	if c.Chart != nil {
		if cmd := c.Chart(sym); cmd != "" {
			lines = append(lines, "Chart: "+cmd)
		}
	}
	first, _, _ := strings.Cut(price, "\n")
	return []app.InlineResult{{
		ID: sym, Title: c.Market + " " + sym, Description: first,
		Text: strings.Join(lines, "\n"), NoPreview: true,
	}}, nil
}

// InlineSummary answers the empty inline query with the user's own
// portfolio in the market, at current prices, to send as theirs: personal
// (Telegram shows it to no one else), and nothing for a user with none.
func (d *Desk) InlineSummary(market string) app.Inline {
	return app.Inline{
		Match:     func(q string) bool { return q == "" },
		Personal:  true,
		CacheTime: d.Quotes.Fresh,
		Help:      "(nothing) - your " + strings.ToLower(market) + " portfolio, to send as yours",
		Handler: func(ctx context.Context, r *app.InlineRequest) ([]app.InlineResult, error) {
			body, found, err := d.stats(ctx, r.UserID)
			if err != nil || !found {
				return nil, err
			}
			total := body[strings.LastIndex(body, "\n")+1:]
			return []app.InlineResult{{
				ID: "portfolio", Title: "My " + strings.ToLower(market) + " portfolio", Description: total,
				Text: "My " + strings.ToLower(market) + " portfolio:\n" + body,
			}}, nil
		},
	}
}
