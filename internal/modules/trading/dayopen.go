package trading

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// The first price a market fetched of a symbol on a day (UTC) is kept
// under "open:<SYM>": a price card's change is measured from it, at no
// cost to the providers (no history asked for it).
const openPrefix = "open:"

// noteOpen keeps q as sym's day open when it is the first fetched that
// day. A failure costs only the change on today's cards.
func (qs *Quotes) noteOpen(ctx context.Context, sym string, q Quote) {
	var open Quote
	err := qs.Store.GetJSON(ctx, openPrefix+sym, &open)
	if err == nil && sameDay(open.At, q.At) {
		return
	}
	if err := qs.Store.PutJSON(ctx, openPrefix+sym, q); err != nil {
		qs.Log.Warn("day open not kept", "symbol", sym, "err", err)
	}
}

// DayOpen is the first price fetched of sym on q's day (UTC), when there
// is one older than q from the same kind of source (a stand-in's price is
// another market's).
func (qs *Quotes) DayOpen(ctx context.Context, sym string, q Quote) (Quote, bool) {
	var open Quote
	if err := qs.Store.GetJSON(ctx, openPrefix+sym, &open); err != nil {
		return Quote{}, false
	}
	ok := sameDay(open.At, q.At) && open.At.Before(q.At) && open.StandIn == q.StandIn && open.Price.IsPositive()
	return open, ok
}

func sameDay(a, b time.Time) bool {
	return a.UTC().Format(time.DateOnly) == b.UTC().Format(time.DateOnly)
}

// Move is the change from open to q: "+5.00% (+$3,000.03) since 12:00
// UTC", the difference written by money.
func Move(w app.Words, open, q Quote, money func(decimal.Decimal) string) string {
	diff := q.Price.Sub(open.Price)
	sign := "+"
	if diff.IsNegative() {
		sign = "-"
	}
	pct := diff.Abs().Mul(decimal.NewFromInt(100)).Div(open.Price)
	return w.T("trading.since", app.Args{"Pct": sign + locale.Number(w.Lang, pct.StringFixed(2)), "Diff": sign + money(diff.Abs()),
		"At": Clock(w, open.At)})
}

// Moment is when a price was taken as w's reader reads it, on their clock
// (Vietnam time unless they chose another): English with the clock's name
// (15:04 ICT, 07 Dec 2026), Vietnamese as it writes dates (07/12/2026 08:00).
func Moment(w app.Words, t time.Time) string {
	if w.Lang == locale.Vietnamese {
		return locale.DateTime(w.Lang, w.Local(t))
	}
	return w.Local(t).Format("15:04 MST, 02 Jan 2006")
}

// Clock is a moment's time of day on w's reader's clock (named in English).
func Clock(w app.Words, t time.Time) string {
	if w.Lang == locale.Vietnamese {
		return w.Local(t).Format("15:04")
	}
	return w.Local(t).Format("15:04 MST")
}
