package trading

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"
)

// PriceRange is what a price of a market can sanely be: a source's answer
// outside it (a proxy's garbage, an API's unit changed, an attacker's
// fake) is that source's failure, never a price a desk trades at, an
// alert fires on or a page shows. Far wider than the market ever moves.
type PriceRange struct {
	Min, Max decimal.Decimal
}

// maxPricePlaces bounds a price's decimals: a source's answer with more
// is garbage, and comparing it would cost as much as its digits.
const maxPricePlaces = 30

// ErrOutOfRange marks a price outside its market's range.
var ErrOutOfRange = errors.New("outside the market's range")

// Valid reports whether the range can bound anything.
func (r PriceRange) Valid() bool {
	return r.Min.IsPositive() && r.Max.GreaterThan(r.Min)
}

// Check refuses p outside the range (and any p when the range is
// invalid). The digits are counted before any comparison: a number like
// 1e-999999999 is cheap to read but not to compare.
func (r PriceRange) Check(p decimal.Decimal) error {
	if !r.Valid() {
		return fmt.Errorf("%w: no valid range [%s, %s]", ErrPriceInvalid, r.Min, r.Max)
	}
	mag := func(d decimal.Decimal) int64 { return int64(d.NumDigits()) + int64(d.Exponent()) } // its integer digits
	switch {
	case p.Exponent() < -maxPricePlaces || mag(p) > mag(r.Max)+1 || mag(p) < mag(r.Min)-1,
		p.LessThan(r.Min), p.GreaterThan(r.Max):
		return fmt.Errorf("%w: %w [%s, %s]: %s", ErrPriceInvalid, ErrOutOfRange, r.Min, r.Max, shortNumber(p))
	}
	return nil
}

// CheckQuote checks both sides of q.
func (r PriceRange) CheckQuote(q Quote) error {
	if err := r.Check(q.Price); err != nil {
		return err
	}
	if !q.Bid.IsZero() {
		return r.Check(q.Bid)
	}
	return nil
}

// shortNumber names p in a log line without writing out its digits.
func shortNumber(p decimal.Decimal) string {
	if p.NumDigits() > 40 || p.Exponent() > 40 || p.Exponent() < -40 {
		return fmt.Sprintf("a number of %d digits, exponent %d", p.NumDigits(), p.Exponent())
	}
	return p.String()
}
