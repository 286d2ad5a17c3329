package trading

import (
	"context"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Desk is a market as its parts share it: its Kit (rules, money, name,
// first top-up and unit), its prices, and the parts the others answer
// for (the values, the alerts, the asking buy and sell). The buy and sell
// commands are package desk's.
type Desk struct {
	*Kit           // the market's declaration
	Quotes *Quotes // its store and clock are the desk's too
	// Values, when set, records portfolios daily and puts a chart button
	// on the stats reply.
	Values *Values
	// Bot, when set, is asked whether a group board's member is still in
	// the group when they look at it (BoardMember).
	Bot    app.Messenger
	Alerts *Alerts // the market's alerts, moved with a chat
	// Texts are the market's words for work no request carries (the Mini
	// App's answers).
	Texts app.Texts
	// Press answers a holding's button at the asking buy or sell.
	Press func(ctx context.Context, c *app.CallbackRequest, kind, arg string) error
}

// UnitOf is how a reply in w's language names a quantity of sym.
func (d *Desk) UnitOf(w app.Words, sym string) string { return KeyOr(w, d.Unit, sym) }

// Names names, in w's language, the market's own sources ("Binance,
// Coinbase") or those that answer another market's price in this one's
// stead (standIn: "world spot"; "": none).
func (d *Desk) Names(w app.Words, standIn bool) string {
	var names []string
	for _, s := range d.Quotes.Sources {
		if s.StandIn == standIn {
			names = append(names, d.SourceName(w, s.Name))
		}
	}
	return strings.Join(names, ", ")
}

// ShowStats is the stats command: the caller's own portfolio at current
// prices, never anyone else's.
func (d *Desk) ShowStats(ctx context.Context, r *app.Request) error {
	if strings.TrimSpace(r.Args) != "" {
		_, err := r.Reply(ctx, r.T("trading.own_stats_only", app.Args{"Name": d.Name}))
		return err
	}
	body, found, err := d.Stats(ctx, r.Words, r.UserID)
	switch {
	case err != nil:
		return err
	case !found:
		_, err := r.Reply(ctx, body)
		return err
	}
	_, err = r.ReplyKeyboard(ctx, body, d.statsKeyboard(r.Words, r.UserID))
	return err
}
