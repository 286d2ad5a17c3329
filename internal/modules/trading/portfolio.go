// Package trading is the paper-trading engine the coin, gold and stock
// modules share: a per-user portfolio of cash and holdings in exact decimal
// money, bought and sold at live prices, stored under "user:<id>" and only
// ever changed through a CAS retry loop, so trades from two devices or two
// runtimes at once each apply exactly once.
package trading

import (
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// Market holds one market's money and rounding rules.
type Market struct {
	CashPlaces  int32 // decimals of a cash amount (USD 2, VND 0)
	QtyPlaces   int32 // decimals of a quantity (coins 8, gold luong 1 = a chi)
	MaxCash     decimal.Decimal
	LotSize     decimal.Decimal // quantities must be multiples of it (0: none)
	HistorySize int
}

// Lots refuses a traded quantity that is not a whole number of lots.
func (m Market) Lots(qty decimal.Decimal) error {
	if m.LotSize.IsPositive() && !qty.Mod(m.LotSize).IsZero() {
		return refused(ErrLot, "lot_of", " of "+m.LotSize.String(), app.Args{"Lot": figure(m.LotSize.String())})
	}
	return nil
}

// Holding is one symbol held.
type Holding struct {
	Qty  decimal.Decimal `json:"qty"`
	Cost decimal.Decimal `json:"cost"` // cash paid for the quantity held
}

// Trade is one entry of the bounded history.
type Trade struct {
	At     time.Time       `json:"at"`
	Kind   string          `json:"kind"` // topup | buy | sell
	Symbol string          `json:"symbol,omitempty"`
	Qty    decimal.Decimal `json:"qty,omitempty"`
	Price  decimal.Decimal `json:"price,omitempty"`
	Cash   decimal.Decimal `json:"cash"` // cash in (+) or out (-)
}

// Portfolio is one user's account in one market.
type Portfolio struct {
	Cash     decimal.Decimal    `json:"cash"`
	Invested decimal.Decimal    `json:"invested"` // total topped up
	Realized decimal.Decimal    `json:"realized"` // profit or loss of what was sold
	Holdings map[string]Holding `json:"holdings"`
	Created  time.Time          `json:"created"`
	History  []Trade            `json:"history"`
	// Chats are the groups the user changed it in (Apply), oldest first,
	// at most MaxChats: the groups whose boards show it.
	Chats []int64 `json:"chats,omitempty"`
	// Name is how a board names its owner: the name of their latest change.
	Name string `json:"name,omitempty"`
	// Listed puts it on the board of the users who opted in (/<market>_top
	// join), the one a private chat shows.
	Listed bool `json:"listed,omitempty"`
	// The last updates that changed it, with their replies (see Apply).
	app.Once[string]
}

// Errors a command turns into a reply; the portfolio is then unchanged.
var (
	ErrAmount       = errors.New("the amount must be a positive number")
	ErrPrecision    = errors.New("too many decimal places")
	ErrTooLarge     = errors.New("the amount is too large")
	ErrNoCash       = errors.New("not enough cash")
	ErrNoHolding    = errors.New("not enough of that holding")
	ErrLot          = errors.New("the quantity must be a whole number of lots")
	ErrPriceInvalid = errors.New("no valid price")
)

// ParseAmount reads a user's number as lang writes it (locale.ParseDecimal):
// positive, within places decimals and below max. It never goes through
// float64.
func ParseAmount(lang app.Lang, s string, places int32, max decimal.Decimal) (decimal.Decimal, error) {
	plain, err := locale.ParseDecimal(lang, s)
	if errors.Is(err, locale.ErrAmbiguous) {
		return decimal.Zero, fmt.Errorf("%w: %w", ErrAmount, err)
	}
	d, err := decimal.NewFromString(plain)
	switch {
	case err != nil, !d.IsPositive():
		return decimal.Zero, ErrAmount
	case d.Exponent() < -places && !d.Equal(d.Truncate(places)):
		return decimal.Zero, refused(ErrPrecision, "at_most", fmt.Sprintf(": at most %d", places), app.Args{"Max": figure(fmt.Sprint(places))})
	case !max.IsZero() && d.GreaterThan(max):
		return decimal.Zero, refused(ErrTooLarge, "at_most", ": at most "+max.String(), app.Args{"Max": figure(max.String())})
	}
	return d, nil
}

func (p *Portfolio) init(now time.Time) {
	if p.Holdings == nil {
		p.Holdings = map[string]Holding{}
	}
	if p.Created.IsZero() {
		p.Created = now
	}
}

func (p *Portfolio) log(m Market, t Trade) {
	p.History = append(p.History, t)
	if n := m.HistorySize; n > 0 && len(p.History) > n {
		p.History = append([]Trade{}, p.History[len(p.History)-n:]...)
	}
}

// TopUp adds cash.
func (p *Portfolio) TopUp(m Market, amount decimal.Decimal, now time.Time) error {
	p.init(now)
	if next := p.Cash.Add(amount); !m.MaxCash.IsZero() && next.GreaterThan(m.MaxCash) {
		return cashCap(m)
	}
	p.Cash = p.Cash.Add(amount)
	p.Invested = p.Invested.Add(amount)
	p.log(m, Trade{At: now, Kind: "topup", Cash: amount})
	return nil
}

// BuyFor spends at most cash on sym at price: the most the market's
// quantity precision allows whose cost (BuyQty) is within cash.
func (p *Portfolio) BuyFor(m Market, sym string, cash, price decimal.Decimal, now time.Time) (qty decimal.Decimal, err error) {
	if !price.IsPositive() {
		return decimal.Zero, ErrPriceInvalid
	}
	// The holding after the buy is worth at most what it is worth now
	// plus cash, and a worth is rounded half up to whole cash units, so
	// the quantity held after it times the price stays within that sum.
	held := p.Holdings[sym].Qty
	qty = cash.Add(Cost(m, held, price)).Div(price).Sub(held).Truncate(m.QtyPlaces)
	return qty, p.BuyQty(m, sym, qty, price, now)
}

// Cost is what qty at price is worth: rounded to the nearest cash unit
// (half up), the one rounding of a valuation and of every trade's cash.
func Cost(m Market, qty, price decimal.Decimal) decimal.Decimal {
	return qty.Mul(price).Round(m.CashPlaces)
}

// tradeCash is the cash a trade of sym at price moves: the change it makes
// to the worth (Cost) of the holding at that price, from held to held plus
// delta (delta negative for a sale). Rounding the holding's worth rather
// than each trade, trades at one price, however split, move exactly the
// worth of what they add or take: a buy and a sale of it at one price
// give back what it cost to the last unit, and no sequence of trades at
// one price gains or loses a unit from rounding.
func tradeCash(m Market, held, delta, price decimal.Decimal) decimal.Decimal {
	return Cost(m, held.Add(delta), price).Sub(Cost(m, held, price))
}

// BuyQty buys qty of sym at price, for the rise it makes in the
// holding's worth there (tradeCash).
func (p *Portfolio) BuyQty(m Market, sym string, qty, price decimal.Decimal, now time.Time) error {
	p.init(now)
	if !price.IsPositive() {
		return ErrPriceInvalid
	}
	if !qty.IsPositive() {
		return refused(ErrAmount, "buys_nothing", ": that buys nothing at "+price.String(), app.Args{"Price": figure(price.String())})
	}
	if err := m.Lots(qty); err != nil {
		return err
	}
	h := p.Holdings[sym]
	cost := tradeCash(m, h.Qty, qty, price)
	if cost.GreaterThan(p.Cash) {
		need, have := cost.StringFixed(m.CashPlaces), p.Cash.StringFixed(m.CashPlaces)
		return refused(ErrNoCash, "needed", ": "+need+" needed, "+have+" available", app.Args{"Need": figure(need), "Have": figure(have)})
	}
	h.Qty, h.Cost = h.Qty.Add(qty), h.Cost.Add(cost)
	p.Holdings[sym] = h
	p.Cash = p.Cash.Sub(cost)
	p.log(m, Trade{At: now, Kind: "buy", Symbol: sym, Qty: qty, Price: price, Cash: cost.Neg()})
	return nil
}

// Sell sells qty of sym (all of it when all is true) at price, for the
// fall it makes in the holding's worth there (tradeCash): all of it for
// its whole worth. The cost basis leaves pro rata.
func (p *Portfolio) Sell(m Market, sym string, qty decimal.Decimal, all bool, price decimal.Decimal, now time.Time) (decimal.Decimal, decimal.Decimal, error) {
	p.init(now)
	if !price.IsPositive() {
		return decimal.Zero, decimal.Zero, ErrPriceInvalid
	}
	if err := p.CanSell(m, sym, qty, all); err != nil {
		return decimal.Zero, decimal.Zero, err
	}
	h := p.Holdings[sym]
	if all {
		qty = h.Qty
	}
	proceeds := tradeCash(m, h.Qty, qty.Neg(), price).Neg()
	costOut := h.Cost
	if !qty.Equal(h.Qty) {
		costOut = h.Cost.Mul(qty).Div(h.Qty).Round(m.CashPlaces)
	}
	h.Qty, h.Cost = h.Qty.Sub(qty), h.Cost.Sub(costOut)
	if h.Qty.IsZero() {
		delete(p.Holdings, sym)
	} else {
		p.Holdings[sym] = h
	}
	p.Cash = p.Cash.Add(proceeds)
	p.Realized = p.Realized.Add(proceeds.Sub(costOut))
	p.log(m, Trade{At: now, Kind: "sell", Symbol: sym, Qty: qty, Price: price, Cash: proceeds})
	return qty, proceeds, nil
}

// CanSell says why qty of sym (all of it when all is true) cannot be sold
// (nil when it can): a check that needs no price, so a sale of what is not
// held is refused before any source is asked.
func (p *Portfolio) CanSell(m Market, sym string, qty decimal.Decimal, all bool) error {
	h, ok := p.Holdings[sym]
	if all {
		qty = h.Qty
	}
	if !ok || !qty.IsPositive() || qty.GreaterThan(h.Qty) {
		return refused(ErrNoHolding, "you_hold", ": you hold "+h.Qty.String(), app.Args{"Qty": figure(h.Qty.String())})
	}
	if !all {
		return m.Lots(qty)
	}
	return nil
}

// cashCap refuses cash past the market's bound.
func cashCap(m Market) error {
	return refused(ErrTooLarge, "cash_cap", ": cash would pass "+m.MaxCash.String(), app.Args{"Max": figure(m.MaxCash.String())})
}
