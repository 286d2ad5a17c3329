package trading

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Dividends. Both keep the books balanced: a cash dividend is cash in and
// realised profit; a stock dividend adds shares at no cost, so the average
// cost per share falls and the gain shows when they are valued or sold.

// IncomeCash records a cash dividend of amount paid on sym, which must be
// held.
func (p *Portfolio) IncomeCash(m Market, sym string, amount decimal.Decimal, now time.Time) error {
	p.init(now)
	if _, ok := p.Holdings[sym]; !ok {
		return refused(ErrNoHolding, "hold_none", ": you hold no "+sym, app.Args{"Sym": sym})
	}
	if next := p.Cash.Add(amount); !m.MaxCash.IsZero() && next.GreaterThan(m.MaxCash) {
		return cashCap(m)
	}
	p.Cash = p.Cash.Add(amount)
	p.Realized = p.Realized.Add(amount)
	p.log(m, Trade{At: now, Kind: "dividend", Symbol: sym, Cash: amount})
	return nil
}

// IncomeShares records a stock dividend (or bonus shares) of qty on sym,
// which must be held. Any quantity is accepted: such shares often come in
// odd lots, which is why selling "all" ignores the lot size.
func (p *Portfolio) IncomeShares(m Market, sym string, qty decimal.Decimal, now time.Time) error {
	p.init(now)
	h, ok := p.Holdings[sym]
	if !ok {
		return refused(ErrNoHolding, "hold_none", ": you hold no "+sym, app.Args{"Sym": sym})
	}
	h.Qty = h.Qty.Add(qty)
	p.Holdings[sym] = h
	p.log(m, Trade{At: now, Kind: "dividend", Symbol: sym, Qty: qty})
	return nil
}
