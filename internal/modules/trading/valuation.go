package trading

import (
	"maps"
	"slices"

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
	for _, s := range slices.Sorted(maps.Keys(p.Holdings)) {
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
