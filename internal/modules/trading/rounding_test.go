package trading

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

// A buy valued at the price it was bought at shows no loss: the quantity a
// cash amount buys is rounded down, and its cost and its value are rounded
// the one way (Cost), on every market's precision.
// drift is cash plus holdings at cost, less what was topped up and the
// realised profit: zero for every sequence of operations, to the last unit.
func drift(p *Portfolio) decimal.Decimal {
	total := p.Cash
	for _, h := range p.Holdings {
		total = total.Add(h.Cost)
	}
	return total.Sub(p.Invested).Sub(p.Realized)
}

func TestABuyAtAnUnchangedPriceShowsNoLoss(t *testing.T) {
	vnd1 := Market{CashPlaces: 0, QtyPlaces: 1} // gold: luong to the chi
	tests := []struct {
		name    string
		m       Market
		forCash bool // BuyFor spends cash; else BuyQty buys amount
		amount  string
		price   string
	}{
		{"coin: $100 of BTC at 60,000.50", usd, true, "100", "60000.5"},
		{"coin: $250.50 of ETH at 3,000", usd, true, "250.5", "3000"},
		{"coin: $10 at a price of three", usd, true, "10", "3"},
		{"coin: $1 of a coin at 0.00001234", usd, true, "1", "0.00001234"},
		{"coin: $999.99 at 97,431.17", usd, true, "999.99", "97431.17"},
		{"gold: 0.1 luong at 85,123,451 (a half dong under)", vnd1, false, "0.1", "85123451"},
		{"gold: 0.3 luong at 85,123,455 (a half dong)", vnd1, false, "0.3", "85123455"},
		{"gold: 0.7 luong at 85,123,459", vnd1, false, "0.7", "85123459"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.m
			m.MaxCash = decimal.Zero
			var p Portfolio
			if err := p.TopUp(m, d("1000000000"), t0); err != nil {
				t.Fatal(err)
			}
			price := d(tt.price)
			var err error
			if tt.forCash {
				_, err = p.BuyFor(m, "X", d(tt.amount), price, t0)
			} else {
				err = p.BuyQty(m, "X", d(tt.amount), price, t0)
			}
			if err != nil {
				t.Fatal(err)
			}
			v := p.Value(m, func(string) (decimal.Decimal, bool) { return price, true })
			if !v.Lines[0].PL.IsZero() || !v.PL.IsZero() {
				t.Fatalf("valued at its buy price: line P/L %s, total P/L %s; want exactly zero", v.Lines[0].PL, v.PL)
			}
			if !drift(&p).IsZero() {
				t.Fatalf("drift %s", drift(&p))
			}
		})
	}
}

// A round trip at one price gives back exactly what it cost: cash spent
// on a holding at a price, then the whole holding sold at that price,
// leaves the cash where it was, on every market's precision, whether
// the buy named the cash or the quantity.
func TestARoundTripAtOnePriceGivesBackWhatItCost(t *testing.T) {
	coin := Market{CashPlaces: 2, QtyPlaces: 8}
	gold := Market{CashPlaces: 0, QtyPlaces: 1}
	stock := Market{CashPlaces: 0, QtyPlaces: 0, LotSize: d("100")}
	tests := []struct {
		name    string
		m       Market
		forCash bool // BuyFor spends amount; else BuyQty buys amount
		amount  string
		price   string
	}{
		{"coin: $500 of BTC at 97,431.17", coin, true, "500", "97431.17"},
		{"coin: $100 of BTC at 97,431.17", coin, true, "100", "97431.17"},
		{"coin: $10 at a price of three", coin, true, "10", "3"},
		{"coin: $100 at 60,000.50", coin, true, "100", "60000.5"},
		{"coin: $1 of a coin at 0.00001234", coin, true, "1", "0.00001234"},
		{"coin: $999.99 at 7", coin, true, "999.99", "7"},
		{"coin: $0.01 at 2,999.99", coin, true, "0.01", "2999.99"},
		{"coin: 0.00000001 BTC at 500,000 (half a cent)", coin, false, "0.00000001", "500000"},
		{"gold: 15,000,000 dong at 85,123,451", gold, true, "15000000", "85123451"},
		{"gold: 0.3 luong at 85,123,455 (a half dong)", gold, false, "0.3", "85123455"},
		{"gold: 0.7 luong at 85,123,459", gold, false, "0.7", "85123459"},
		{"stock: 100 shares at 26,750", stock, false, "100", "26750"},
		{"stock: 1,200 shares at 123,400", stock, false, "1200", "123400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Portfolio
			start := d("1000000000")
			if err := p.TopUp(tt.m, start, t0); err != nil {
				t.Fatal(err)
			}
			price := d(tt.price)
			var err error
			if tt.forCash {
				_, err = p.BuyFor(tt.m, "X", d(tt.amount), price, t0)
			} else {
				err = p.BuyQty(tt.m, "X", d(tt.amount), price, t0)
			}
			if err != nil {
				t.Fatal(err)
			}
			paid := start.Sub(p.Cash)
			_, proceeds, err := p.Sell(tt.m, "X", decimal.Zero, true, price, t0)
			if err != nil {
				t.Fatal(err)
			}
			if !proceeds.Equal(paid) || !p.Cash.Equal(start) || !p.Realized.IsZero() || !drift(&p).IsZero() {
				t.Fatalf("paid %s, got back %s: cash %s of %s, realised %s, drift %s", paid, proceeds, p.Cash, start, p.Realized, drift(&p))
			}
		})
	}
}

// Trades at one price never gain or lose from rounding however they are
// split: buying in pieces and selling in other pieces at that price leaves
// the cash where it was once nothing is held.
func TestSplitTradesAtOnePriceNetToNothing(t *testing.T) {
	m := Market{CashPlaces: 2, QtyPlaces: 8}
	for _, price := range []string{"500000", "3", "60000.5", "97431.17", "0.00001234", "7"} {
		var p Portfolio
		start := d("1000")
		_ = p.TopUp(m, start, t0)
		pr := d(price)
		for _, cash := range []string{"0.01", "10", "3.33", "0.02", "7.77"} {
			if _, err := p.BuyFor(m, "X", d(cash), pr, t0); err != nil && !errors.Is(err, ErrAmount) {
				t.Fatal(err)
			}
		}
		for p.Holdings["X"].Qty.IsPositive() {
			h := p.Holdings["X"].Qty
			piece := h.Div(d("3")).Truncate(8)
			all := !piece.IsPositive() || h.LessThan(d("0.00000010"))
			if _, _, err := p.Sell(m, "X", piece, all, pr, t0); err != nil {
				t.Fatal(err)
			}
		}
		if !p.Cash.Equal(start) || !drift(&p).IsZero() {
			t.Fatalf("at %s: split trades left cash %s of %s (drift %s)", price, p.Cash, start, drift(&p))
		}
	}
}

// A sale rounds down: a buy and a sale at one price never gain from rounding.
func TestARoundTripNeverGainsFromRounding(t *testing.T) {
	for _, price := range []string{"3", "60000.5", "0.00001234", "97431.17", "7"} {
		var p Portfolio
		_ = p.TopUp(usd, d("100"), t0)
		if _, err := p.BuyFor(usd, "X", d("10"), d(price), t0); err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Sell(usd, "X", decimal.Zero, true, d(price), t0); err != nil {
			t.Fatal(err)
		}
		if p.Cash.GreaterThan(d("100")) {
			t.Fatalf("at %s: a round trip left %s from 100", price, p.Cash)
		}
	}
}
