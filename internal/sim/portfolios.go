package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// load reads b's stored portfolio, past the processes' faults.
func (l *life) load(b book) *trading.Portfolio {
	p, _, err := trading.Load(context.Background(), l.cfg.Store.For(b.ns), b.user)
	if err != nil {
		l.t.Fatal(err)
	}
	return p
}

// resyncMoney takes the stored portfolio as the truth from here on, after
// a known bug was counted.
func (l *life) resyncMoney(b book) {
	p, a := l.load(b), l.money.of(b)
	a.cash, a.invested, a.realized = p.Cash, p.Invested, p.Realized
	clear(a.qty)
	clear(a.cost)
	for sym, h := range p.Holdings {
		a.qty[sym], a.cost[sym] = h.Qty, h.Cost
	}
}

// checkPortfolios: each stored portfolio is what its confirmations say,
// to the last decimal of its market (the cent, the dong, the satoshi).
func (l *life) checkPortfolios() {
	for b, a := range l.money.accounts {
		p, _, err := trading.Load(context.Background(), l.cfg.Store.For(b.ns), b.user)
		if err != nil {
			l.fail("money", "%s user %d: %v", b.ns, b.user, err)
		}
		if diff := differences(p, a); len(diff) > 0 {
			l.fail("money", "%s user %d's portfolio is not what the bot confirmed: %s", b.ns, b.user, strings.Join(diff, "; "))
		}
	}
}

// differences lists where a stored portfolio and the model disagree.
func differences(p *trading.Portfolio, a *account) []string {
	var diff []string
	if !p.Cash.Equal(a.cash) || !p.Invested.Equal(a.invested) || !p.Realized.Equal(a.realized) {
		diff = append(diff, fmt.Sprintf("cash/invested/realized %s/%s/%s, confirmed %s/%s/%s", p.Cash, p.Invested, p.Realized, a.cash, a.invested, a.realized))
	}
	for sym, q := range a.qty {
		h := p.Holdings[sym]
		if !h.Qty.Equal(q) || !h.Cost.Equal(a.cost[sym]) {
			diff = append(diff, fmt.Sprintf("%s %s at cost %s, confirmed %s at %s", sym, h.Qty, h.Cost, q, a.cost[sym]))
		}
	}
	for sym, h := range p.Holdings {
		if _, ok := a.qty[sym]; !ok {
			diff = append(diff, fmt.Sprintf("%s %s never confirmed", sym, h.Qty))
		}
	}
	return diff
}
