package trading

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/miti99bot/miti99bot/internal/app"
)

// AlertsEvery is when the check runs: every minute.
const AlertsEvery = "* * * * *"

// Cron is the check, job "<name>_alerts". A check reads the prices now,
// whichever slot it runs for: a late one checks what is true by then.
func (a *Alerts) Cron() app.Cron {
	return app.Cron{Name: a.Desk.Name + "_alerts", Schedule: AlertsEvery, Handler: func(ctx context.Context, _ app.CronRun) error { return a.Check(ctx) }}
}

// Bounds of a check's pricing: each symbol is priced on its own, this
// many at once, each by its own deadline within the check's budget (the
// job's minute), so that a slow source holds only its own symbol's alerts
// and the rest of the budget is left to deliver.
const (
	symbolsAtOnce = 16
	priceBudget   = 30 * time.Second
)

// ErrCheckPartial: a check's budget ended before some symbols were priced;
// their alerts wait for the next check. A check with no other trouble
// returns it as app.ErrPartial too: the run is partial, not failed.
var ErrCheckPartial = errors.New("the check did not finish")

// Check is one check: each symbol some alert watches is priced once, from
// the market's own sources (Quotes.OwnPrice: never a stand-in, another
// market's price), every symbol on its own (symbolsAtOnce, priceBudget);
// an alert its price crossed gets its timer, due at once, which sends it
// (OnTimer). A symbol without a usable price (every own source down, a
// price older than AlertTolerance) waits for the next check, which records
// why for the list: an outage delays an alert, never fires it. A symbol
// whose price did not come by its deadline makes the check
// ErrCheckPartial, logged at WARN with the symbols left.
func (a *Alerts) Check(ctx context.Context) error {
	users, err := usersUnder(ctx, a.store(), alertsPrefix)
	if err != nil {
		return fmt.Errorf("%s alerts: %w", a.Desk.Name, err)
	}
	bySymbol := map[string][]firing{}
	var oldFired []firing
	var errs []error
	for _, u := range users {
		b, err := a.loadBook(ctx, u)
		if err != nil { // one record that cannot be read holds up no one else's
			errs = append(errs, fmt.Errorf("alerts of %d: %w", u, err))
			continue
		}
		for _, al := range b.Alerts {
			if al.OldFired != nil {
				oldFired = append(oldFired, firing{User: u, Alert: al})
			} else {
				bySymbol[al.Symbol] = append(bySymbol[al.Symbol], firing{User: u, Alert: al})
			}
		}
	}
	var mu sync.Mutex
	why := map[string]waiting{}
	var left []string
	pricing, stop := context.WithTimeout(ctx, priceBudget)
	defer stop()
	var g errgroup.Group
	g.SetLimit(symbolsAtOnce)
	for sym, hs := range bySymbol {
		g.Go(func() error {
			serrs, wait, cut := a.checkSymbol(ctx, pricing, sym, hs)
			mu.Lock()
			defer mu.Unlock()
			errs = append(errs, serrs...)
			if wait.Why != "" {
				why[sym] = wait
			}
			if cut {
				left = append(left, sym)
			}
			return nil
		})
	}
	for _, h := range oldFired { // priced already
		err := a.fireOld(ctx, h)
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	_ = g.Wait() // each symbol's errors are kept in errs
	a.noteWaits(context.WithoutCancel(ctx), why)
	if len(left) > 0 {
		sort.Strings(left)
		a.Desk.Quotes.Log.Warn("alert check did not finish: symbols left unpriced; their alerts wait for the next check",
			"market", a.Desk.Name, "symbols", strings.Join(left, ","))
		cut := fmt.Errorf("%w: no price in time for %s", ErrCheckPartial, strings.Join(left, ", "))
		if errors.Join(errs...) == nil {
			cut = fmt.Errorf("%w (%w)", cut, app.ErrPartial)
		}
		errs = append(errs, cut)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s alerts: %w", a.Desk.Name, err)
	}
	return nil
}

// checkSymbol prices sym within pricing and sets the timers of the alerts
// its price crossed: why it waits, if it does, and cut when its price did
// not come in time.
func (a *Alerts) checkSymbol(ctx, pricing context.Context, sym string, hs []firing) (errs []error, wait waiting, cut bool) {
	q, wait := a.usable(pricing, sym)
	if cut = wait.Why != "" && pricing.Err() != nil; cut {
		return nil, waiting{Why: "late"}, true
	}
	if wait.Why != "" {
		return nil, wait, false
	}
	for _, h := range hs {
		if !crossed(h.Alert, q) {
			continue
		}
		errs = append(errs, a.fire(ctx, h, q))
	}
	return errs, waiting{}, false
}

// crossed reports whether q's price is at or past al's level.
func crossed(al Alert, q Quote) bool {
	if al.Above {
		return q.Price.GreaterThanOrEqual(al.Level)
	}
	return q.Price.LessThanOrEqual(al.Level)
}
