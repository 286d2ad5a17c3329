package trading

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

var usd = Market{CashPlaces: 2, QtyPlaces: 8, MaxCash: decimal.NewFromInt(1_000_000_000), HistorySize: 20}

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestParseAmount(t *testing.T) {
	max := d("1000000")
	en, vi := app.English, app.Vietnamese
	tests := []struct {
		lang app.Lang
		in   string
		want string
		err  error
	}{
		{en, "10", "10", nil},
		{en, "10.25", "10.25", nil},
		{en, "10.250", "10.25", nil}, // a trailing zero is not extra precision
		{en, "0.01", "0.01", nil},
		{en, "", "", ErrAmount},
		{en, "0", "", ErrAmount},
		{en, "-5", "", ErrAmount},
		{en, "abc", "", ErrAmount},
		{en, "1,000", "1000", nil}, // English thousands
		{en, "1,5", "", ErrAmount},
		{en, "NaN", "", ErrAmount},
		{en, "10.255", "", ErrPrecision},
		{en, "1000000.01", "", ErrTooLarge},
		{en, "1e9", "", ErrTooLarge},
		{vi, "0,5", "0.5", nil},
		{vi, "0.5", "0.5", nil},
		{vi, "1.234,5", "1234.5", nil},
		{vi, "1.500", "", locale.ErrAmbiguous}, // 1500 or 1.5: refused, a refusal of the amount
		{vi, "1.500", "", ErrAmount},
		{vi, "10,255", "", ErrPrecision},
	}
	for _, tt := range tests {
		got, err := ParseAmount(tt.lang, tt.in, 2, max)
		if !errors.Is(err, tt.err) || (tt.err == nil && !got.Equal(d(tt.want))) {
			t.Errorf("ParseAmount(%s, %q) = %s, %v; want %s, %v", tt.lang, tt.in, got, err, tt.want, tt.err)
		}
	}
}

// A cash buy takes the most the quantity's precision allows within the
// cash; its cost and the sale's proceeds at that price are its worth, alike.
func TestACashBuyTakesTheMostWithinItsCashAndASaleGivesItBack(t *testing.T) {
	var p Portfolio
	if err := p.TopUp(usd, d("100"), t0); err != nil {
		t.Fatal(err)
	}
	qty, err := p.BuyFor(usd, "BTC", d("10"), d("3"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if !qty.Equal(d("3.33333333")) || !p.Cash.Equal(d("90")) {
		t.Fatalf("bought %s for cash left %s; want 3.33333333 (rounded down) paid 10.00 (its worth, rounded)", qty, p.Cash)
	}
	sold, proceeds, err := p.Sell(usd, "BTC", decimal.Zero, true, d("3"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if !sold.Equal(qty) || !proceeds.Equal(d("10")) || !p.Realized.IsZero() || len(p.Holdings) != 0 {
		t.Fatalf("sold %s for %s, realised %s", sold, proceeds, p.Realized)
	}
	if !drift(&p).IsZero() {
		t.Fatalf("drift %s", drift(&p))
	}
}

func TestBadTradesChangeNothing(t *testing.T) {
	var p Portfolio
	_ = p.TopUp(usd, d("10"), t0)
	_, _ = p.BuyFor(usd, "ETH", d("5"), d("2"), t0)
	before := p.Cash
	cases := []struct {
		name string
		do   func() error
		want error
	}{
		{"more cash than there is", func() error { _, err := p.BuyFor(usd, "ETH", d("6"), d("2"), t0); return err }, ErrNoCash},
		{"more than is held", func() error { _, _, err := p.Sell(usd, "ETH", d("3"), false, d("2"), t0); return err }, ErrNoHolding},
		{"a symbol not held", func() error { _, _, err := p.Sell(usd, "DOGE", d("1"), false, d("2"), t0); return err }, ErrNoHolding},
		{"a zero price", func() error { _, err := p.BuyFor(usd, "ETH", d("1"), decimal.Zero, t0); return err }, ErrPriceInvalid},
		{"an amount that buys nothing", func() error { _, err := p.BuyFor(usd, "BTC", d("0.01"), d("100000000000"), t0); return err }, ErrAmount},
		{"cash past the limit", func() error { return p.TopUp(usd, d("1000000000"), t0) }, ErrTooLarge},
	}
	for _, c := range cases {
		if err := c.do(); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if !p.Cash.Equal(before) || !p.Holdings["ETH"].Qty.Equal(d("2.5")) {
		t.Fatalf("a refused trade changed the portfolio: cash %s, ETH %s", p.Cash, p.Holdings["ETH"].Qty)
	}
}

func TestDividendsKeepTheBooksBalanced(t *testing.T) {
	var p Portfolio
	if err := p.IncomeCash(usd, "KO", d("10"), t0); !errors.Is(err, ErrNoHolding) {
		t.Fatalf("a dividend on a stock not held: %v", err)
	}
	_ = p.TopUp(usd, d("1000"), t0)
	_ = p.BuyQty(usd, "KO", d("10"), d("60"), t0)
	if err := p.IncomeCash(usd, "KO", d("4.85"), t0); err != nil {
		t.Fatal(err)
	}
	if err := p.IncomeShares(usd, "KO", d("1"), t0); err != nil {
		t.Fatal(err)
	}
	h := p.Holdings["KO"]
	switch {
	case !p.Cash.Equal(d("404.85")), !p.Realized.Equal(d("4.85")):
		t.Fatalf("a cash dividend is cash and realised profit: cash %s, realised %s", p.Cash, p.Realized)
	case !h.Qty.Equal(d("11")), !h.Cost.Equal(d("600")):
		t.Fatalf("a stock dividend adds shares at no cost: %+v", h)
	case !drift(&p).IsZero():
		t.Fatalf("drift %s", drift(&p))
	}
	if v := p.Value(usd, func(string) (decimal.Decimal, bool) { return d("60"), true }); !v.PL.Equal(d("64.85")) {
		t.Fatalf("P/L %s, want the dividend and the bonus share's value", v.PL)
	}
}

// TestNoSequenceOfTradesDrifts is a property test over random sequences:
// cash plus holdings at cost always equals top-ups plus realised profit,
// and nothing goes negative.
func TestNoSequenceOfTradesDrifts(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var p Portfolio
		syms := []string{"BTC", "ETH", "SOL"}
		for range 60 {
			price := decimal.NewFromInt(int64(rng.IntN(100_000) + 1)).Shift(-int32(rng.IntN(6)))
			sym := syms[rng.IntN(len(syms))]
			switch rng.IntN(5) {
			case 0:
				_ = p.TopUp(usd, decimal.NewFromInt(int64(rng.IntN(100_000)+1)).Shift(-2), t0)
			case 1:
				_, _ = p.BuyFor(usd, sym, decimal.NewFromInt(int64(rng.IntN(50_000)+1)).Shift(-2), price, t0)
			case 2:
				_ = p.IncomeCash(usd, sym, decimal.NewFromInt(int64(rng.IntN(10_000)+1)).Shift(-2), t0)
			case 3:
				_ = p.IncomeShares(usd, sym, decimal.NewFromInt(int64(rng.IntN(1_000)+1)).Shift(-3), t0)
			default:
				qty := p.Holdings[sym].Qty.Mul(decimal.NewFromInt(int64(rng.IntN(100) + 1))).Div(decimal.NewFromInt(100)).Truncate(8)
				_, _, _ = p.Sell(usd, sym, qty, rng.IntN(5) == 0, price, t0)
			}
			if !drift(&p).IsZero() || p.Cash.IsNegative() {
				t.Fatalf("seed %d: drift %s, cash %s", seed, drift(&p), p.Cash)
			}
			for s, h := range p.Holdings {
				if !h.Qty.IsPositive() || h.Cost.IsNegative() {
					t.Fatalf("seed %d: holding %s %+v", seed, s, h)
				}
			}
		}
		if len(p.History) > usd.HistorySize {
			t.Fatalf("history grew to %d", len(p.History))
		}
	}
}

func TestConcurrentTradesOnTheRealBackends(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, prov storage.KVProvider) {
		s := prov.For("coin")
		ctx := context.Background()

		// A new user's first two top-ups at once both apply.
		var wg sync.WaitGroup
		for _, amount := range []string{"5", "7"} {
			wg.Go(func() {
				if _, err := update(ctx, s, 1, func(p *Portfolio) error { return p.TopUp(usd, d(amount), t0) }); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if p, _, _ := Load(ctx, s, 1); !p.Cash.Equal(d("12")) {
			t.Fatalf("first top-ups: cash %s, want 12", p.Cash)
		}

		// 2 x 200 interleaved operations on one user end where a serial run does.
		if !backendtest.AtomicValueCAS(t, prov) {
			t.Skip(backendtest.FerretDBLimit) // the insert race above ran
		}
		if _, err := update(ctx, s, 2, func(p *Portfolio) error { return p.TopUp(usd, d("1000"), t0) }); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for range 200 {
				if err := asAUser(func() error {
					_, err := update(ctx, s, 2, func(p *Portfolio) error { return p.TopUp(usd, d("1"), t0) })
					return err
				}); err != nil {
					t.Error(err)
					return
				}
			}
		})
		wg.Go(func() {
			for i := range 200 {
				err := asAUser(func() error {
					_, err := update(ctx, s, 2, func(p *Portfolio) error {
						if i%2 == 0 {
							_, err := p.BuyFor(usd, "BTC", d("0.50"), d("2"), t0)
							return err
						}
						_, _, err := p.Sell(usd, "BTC", d("0.25"), false, d("2"), t0)
						return err
					})
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
		wg.Wait()
		p, _, err := Load(ctx, s, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Cash.Equal(d("1200")) || !p.Invested.Equal(d("1200")) || len(p.Holdings) != 0 || !drift(p).IsZero() {
			t.Fatalf("after the race: cash %s, invested %s, holdings %v, drift %s", p.Cash, p.Invested, p.Holdings, drift(p))
		}
	})
}

// update applies f to the user's portfolio under compare-and-swap, as
// Apply does without its once-per-update record: ErrBusy when it kept
// changing.
func update(ctx context.Context, s storage.KVStore, userID int64, f func(p *Portfolio) error) (*Portfolio, error) {
	var out *Portfolio
	err := storage.UpdateJSON(ctx, s, Key(userID), func(p *Portfolio, _ bool) (bool, error) {
		out = p
		return true, f(p)
	})
	if errors.Is(err, storage.ErrBusy) {
		return nil, ErrBusy
	}
	return out, err
}

// asAUser does what ErrBusy asks of the user: try again. Two writers
// hammering one portfolio can starve one of them past update's retries on
// a slow disk (bolt fsyncs every write); the contract allows that, and
// the state must still end where a serial run does.
func asAUser(op func() error) error {
	for range 10 {
		if err := op(); !errors.Is(err, ErrBusy) {
			return err
		}
	}
	return ErrBusy
}

func TestMoneyPutsTheSignFirst(t *testing.T) {
	usd, vnd := &Kit{Currency: "USD", Market: Market{CashPlaces: 2}}, &Kit{Currency: "VND"}
	tests := []struct {
		name, got, want string
	}{
		{"dollars", usd.Cash(app.English, decimal.RequireFromString("1234.5")), "$1,234.50"},
		{"a dollar loss", usd.Cash(app.English, decimal.RequireFromString("-0.01")), "-$0.01"},
		{"a large dollar loss", usd.Price(app.English, decimal.RequireFromString("-1234567.891")), "-$1,234,567.89"},
		{"a loss that rounds to nothing", usd.Cash(app.English, decimal.RequireFromString("-0.001")), "$0.00"},
		{"dong", vnd.Cash(app.English, decimal.NewFromInt(1000)), "1,000 VND"},
		{"a dong loss", vnd.Price(app.English, decimal.NewFromInt(-1000)), "-1,000 VND"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// The longest refresh data (the longest desk name, a ten-character symbol,
// the largest user id) fits Telegram's 64 bytes: Keyboard would panic.
func TestTheLongestRefreshButtonFits(t *testing.T) {
	d := &Desk{Kit: &Kit{Name: "stock"}}
	kb := d.PriceKeyboard(app.Words{}, "ABCDEFGHIJ")
	if n := len(kb.InlineKeyboard[0][0].CallbackData); n > app.MaxCallbackData {
		t.Fatalf("%d bytes", n)
	}
	kb = d.statsKeyboard(app.Words{}, math.MinInt64)
	if n := len(kb.InlineKeyboard[0][0].CallbackData); n > app.MaxCallbackData {
		t.Fatalf("%d bytes", n)
	}
}
