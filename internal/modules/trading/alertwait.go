package trading

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// waitKey holds why each symbol's alerts wait, as the latest check found:
// one record per market, written only when that changes, so the list can
// say why an alert has not fired without asking any source itself.
const waitKey = "alertwait"

// waiting is why a symbol's alerts wait, and since when.
type waiting struct {
	Why   string    `json:"why"`
	Since time.Time `json:"since"`
}

// usable is sym's price for a check, or why its alerts wait: no own
// source answered (a stand-in's price is another market's), the price is
// older than AlertTolerance (or from the future), or it is not positive.
func (a *Alerts) usable(ctx context.Context, sym string) (Quote, string) {
	qs := a.Desk.Quotes
	q, err := qs.OwnPrice(ctx, sym)
	if err != nil {
		a.Log.Warn("alert check: no price of its own market; the alerts wait", "market", a.Desk.Name, "symbol", sym, "err", err)
		switch {
		case errors.Is(err, ErrUnknownSymbol):
			return q, "its own sources (" + qs.OwnSources() + ") call " + sym + " unknown"
		case errors.Is(err, ErrNoPrice) && qs.StandIns() != "":
			return q, "no price from its own market's source (" + qs.OwnSources() + "); " + qs.StandIns() + " is another market's price and fires no alert"
		case errors.Is(err, ErrNoPrice):
			return q, "no price from its sources (" + qs.OwnSources() + ")"
		}
		return q, "its price could not be read"
	}
	now := a.now()
	if age := now.Sub(q.At); age > AlertTolerance || age < -AlertTolerance || !q.Price.IsPositive() {
		a.Log.Warn("alert check: price too old to act on; the alerts wait", "market", a.Desk.Name, "symbol", sym, "at", q.At)
		return q, "its latest price (" + q.At.In(ICT).Format("15:04 MST") + ") is too old to act on"
	}
	return q, ""
}

// noteWaits records why the symbols a check priced wait (none: an empty
// record), keeping each one's Since while its reason holds; a failed
// write is logged, never the check's failure.
func (a *Alerts) noteWaits(ctx context.Context, why map[string]string) {
	var old map[string]waiting
	if err := a.store().GetJSON(ctx, waitKey, &old); err != nil && !errors.Is(err, storage.ErrNotFound) {
		old = nil
	}
	next := make(map[string]waiting, len(why))
	for sym, w := range why {
		if o, ok := old[sym]; ok && o.Why == w {
			next[sym] = o
		} else {
			next[sym] = waiting{Why: w, Since: a.now()}
		}
	}
	if maps.Equal(old, next) {
		return
	}
	var err error
	if len(next) == 0 {
		err = a.store().Delete(ctx, waitKey)
	} else {
		err = a.store().PutJSON(ctx, waitKey, next)
	}
	if err != nil {
		a.Log.Warn("alert check: why alerts wait not recorded", "market", a.Desk.Name, "err", err)
	}
}

// waits is what the latest check recorded; a record unreadable is none.
func (a *Alerts) waits(ctx context.Context) map[string]waiting {
	var w map[string]waiting
	if err := a.store().GetJSON(ctx, waitKey, &w); err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Log.Warn("alerts: why alerts wait unreadable", "market", a.Desk.Name, "err", err)
	}
	return w
}

// waitNote is a listed alert's note on why it waits: "" when it does not.
func waitNote(w map[string]waiting, sym string) string {
	x, ok := w[sym]
	if !ok {
		return ""
	}
	return fmt.Sprintf(" (waits since %s: %s)", x.Since.In(ICT).Format("02 Jan 15:04 MST"), x.Why)
}
