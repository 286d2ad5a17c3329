package trading

import (
	"testing"

	"github.com/shopspring/decimal"
)

// A buy valued at the price it was bought at shows no loss: the quantity a
// cash amount buys is rounded down, and its cost and its value are rounded
// the one way (Cost), on every market's precision.
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
			if !p.Drift().IsZero() {
				t.Fatalf("drift %s", p.Drift())
			}
		})
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
