package trading

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// waitKey holds why each symbol's alerts wait, as the latest check found:
// one record per market, written only when that changes, so the list can
// say why an alert has not fired without asking any source itself.
const waitKey = "alertwait"

// waiting is why a symbol's alerts wait (the key of its text under
// trading.alert.wait, and the time of a price too old), and since when.
// Each check writes it anew.
type waiting struct {
	Why   string    `json:"reason"`
	Price time.Time `json:"price_at,omitzero"` // a price too old: its time
	Since time.Time `json:"since"`
}

// usable is sym's price for a check, or why its alerts wait: no own
// source answered (a stand-in's price is another market's), the price is
// older than AlertTolerance (or from the future), or it is not positive.
func (a *Alerts) usable(ctx context.Context, sym string) (Quote, waiting) {
	qs := a.Desk.Quotes
	q, err := qs.OwnPrice(ctx, sym)
	if err != nil {
		a.Desk.Quotes.Log.Warn("alert check: no price of its own market; the alerts wait", "market", a.Desk.Name, "symbol", sym, "err", err)
		switch {
		case errors.Is(err, ErrUnknownSymbol):
			return q, waiting{Why: "unknown"}
		case errors.Is(err, ErrNoPrice) && slices.ContainsFunc(qs.Sources, func(s Source) bool { return s.StandIn }):
			return q, waiting{Why: "stand_in"}
		case errors.Is(err, ErrNoPrice):
			return q, waiting{Why: "no_price"}
		}
		return q, waiting{Why: "unreadable"}
	}
	now := a.now()
	if age := now.Sub(q.At); age > AlertTolerance || age < -AlertTolerance || !q.Price.IsPositive() {
		a.Desk.Quotes.Log.Warn("alert check: price too old to act on; the alerts wait", "market", a.Desk.Name, "symbol", sym, "at", q.At)
		return q, waiting{Why: "too_old", Price: q.At}
	}
	return q, waiting{}
}

// noteWaits records why the symbols a check priced wait (none: an empty
// record), keeping each one's Since while its reason holds; a failed
// write is logged, never the check's failure.
func (a *Alerts) noteWaits(ctx context.Context, why map[string]waiting) {
	old := a.waits(ctx)
	next := make(map[string]waiting, len(why))
	for sym, w := range why {
		w.Since = a.now()
		if o, ok := old[sym]; ok && o.Why == w.Why && o.Price.Equal(w.Price) {
			w = o
		}
		next[sym] = w
	}
	if maps.EqualFunc(old, next, func(x, y waiting) bool { return x == y }) {
		return
	}
	var err error
	if len(next) == 0 {
		err = a.store().Delete(ctx, waitKey)
	} else {
		err = a.store().PutJSON(ctx, waitKey, next)
	}
	if err != nil {
		a.Desk.Quotes.Log.Warn("alert check: why alerts wait not recorded", "market", a.Desk.Name, "err", err)
	}
}

// waits is what the latest check recorded; a record unreadable is none.
func (a *Alerts) waits(ctx context.Context) map[string]waiting {
	var w map[string]waiting
	if err := a.store().GetJSON(ctx, waitKey, &w); err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Desk.Quotes.Log.Warn("alerts: why alerts wait unreadable", "market", a.Desk.Name, "err", err)
	}
	return w
}

// waitNote is a listed alert's note on why it waits: "" when it does not
// (or a record from before the reasons were keys says nothing).
func (a *Alerts) waitNote(w app.Words, waits map[string]waiting, sym string) string {
	x, ok := waits[sym]
	if !ok || x.Why == "" {
		return ""
	}
	layout := "02 Jan 15:04"
	if w.Lang == locale.Vietnamese {
		layout = "02/01 15:04"
	}
	since := w.Local(x.Since).Format(layout)
	why := w.T("trading.alert.wait."+x.Why, app.Args{"Sym": sym, "Sources": a.Desk.Names(w, false), "StandIns": a.Desk.Names(w, true), "At": w.Local(x.Price).Format("15:04")})
	return w.T("trading.alert.waits", app.Args{"Since": since, "Why": why})
}
