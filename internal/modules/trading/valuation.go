package trading

import (
	"sort"

	"github.com/shopspring/decimal"
)

// Valuation is the portfolio at current prices.
type Valuation struct {
	Cash, Holdings, Total, Invested, PL decimal.Decimal
	Lines                               []Line
}

// Line values one holding.
type Line struct {
	Symbol       string
	Qty, Cost    decimal.Decimal
	Price, Value decimal.Decimal
	PL           decimal.Decimal
	PriceKnown   bool
}

// Value prices every holding (price returns false when it has none: the
// holding then counts at cost), each rounded as a buy's cost is (Cost), and
// computes profit and loss.
func (p *Portfolio) Value(m Market, price func(sym string) (decimal.Decimal, bool)) Valuation {
	v := Valuation{Cash: p.Cash, Invested: p.Invested}
	syms := make([]string, 0, len(p.Holdings))
	for s := range p.Holdings {
		syms = append(syms, s)
	}
	sort.Strings(syms)
	for _, s := range syms {
		h := p.Holdings[s]
		l := Line{Symbol: s, Qty: h.Qty, Cost: h.Cost, Value: h.Cost}
		if pr, ok := price(s); ok {
			l.Price, l.PriceKnown = pr, true
			l.Value = Cost(m, h.Qty, pr)
		}
		l.PL = l.Value.Sub(h.Cost)
		v.Holdings = v.Holdings.Add(l.Value)
		v.Lines = append(v.Lines, l)
	}
	v.Total = v.Cash.Add(v.Holdings)
	v.PL = v.Total.Sub(v.Invested)
	return v
}

// Drift is cash plus holdings at cost, less what was topped up and the
// realised profit: zero for every sequence of operations, to the last unit.
func (p *Portfolio) Drift() decimal.Decimal {
	total := p.Cash
	for _, h := range p.Holdings {
		total = total.Add(h.Cost)
	}
	return total.Sub(p.Invested).Sub(p.Realized)
}
