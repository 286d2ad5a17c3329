package sim

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// account is one user's coin portfolio as the bot's confirmations tell it:
// every top-up, buy and sell it confirmed, applied with the engine's own
// rounding rules (USD to the cent, cost basis leaving pro rata).
type account struct {
	cash, invested, realized decimal.Decimal
	qty, cost                map[string]decimal.Decimal
}

type moneyModel struct{ accounts map[int64]*account }

func newMoneyModel() *moneyModel { return &moneyModel{accounts: map[int64]*account{}} }

func (m *moneyModel) of(user int64) *account {
	a, ok := m.accounts[user]
	if !ok {
		a = &account{qty: map[string]decimal.Decimal{}, cost: map[string]decimal.Decimal{}}
		m.accounts[user] = a
	}
	return a
}

var (
	toppedUp = regexp.MustCompile(`^Topped up \$([\d,.]+)\. Cash: \$([\d,.]+)\.$`)
	traded   = regexp.MustCompile(`^(Bought|Sold) ([\d.]+) (\w+) at \$[\d,.]+ for \$([\d,.]+)\. Cash: \$([\d,.]+)\.$`)
)

func dollars(s string) decimal.Decimal {
	return decimal.RequireFromString(strings.ReplaceAll(s, ",", ""))
}

// trade is a coin command from user; its confirmation moves the model.
func (l *life) trade(user int64, plain func(string) command) command {
	sym := []string{"BTC", "ETH", "DOGE"}[l.r.IntN(3)]
	var c command
	switch x := l.r.IntN(10); {
	case x < 2:
		c = plain(fmt.Sprintf("/coin_topup %d.%02d", 10+l.r.IntN(5000), l.r.IntN(100)))
	case x < 5:
		c = plain(fmt.Sprintf("/coin_buy %s %d.%02d", sym, 1+l.r.IntN(300), l.r.IntN(100)))
	case x < 7:
		qty := []string{"all", "0.001", "0.5", "12", "100"}[l.r.IntN(5)]
		c = plain(fmt.Sprintf("/coin_sell %s %s", sym, qty))
	case x < 9:
		c = plain("/coin_stats")
	default:
		c = plain("/coin_price " + sym)
	}
	c.after = func(calls []Call) {
		lost := false // a confirmation Telegram refused, then the update ran again
		for _, call := range calls {
			switch {
			case call.OK && call.Method == "sendMessage":
				l.confirmed(user, call.Text, lost)
			case call.Method == "sendMessage":
				lost = true
			}
		}
		if lost {
			l.checkReplay(user)
		}
	}
	return c
}

// confirmed applies one confirmation and checks the cash it reports.
func (l *life) confirmed(user int64, text string, lost bool) {
	a := l.money.of(user)
	if m := toppedUp.FindStringSubmatch(text); m != nil {
		amount := dollars(m[1])
		a.cash, a.invested = a.cash.Add(amount), a.invested.Add(amount)
		l.checkCash(user, a, dollars(m[2]), text, lost)
		return
	}
	m := traded.FindStringSubmatch(text)
	if m == nil {
		return
	}
	qty, sym, cash := decimal.RequireFromString(m[2]), m[3], dollars(m[4])
	if m[1] == "Bought" {
		a.qty[sym], a.cost[sym], a.cash = a.qty[sym].Add(qty), a.cost[sym].Add(cash), a.cash.Sub(cash)
	} else {
		out := a.cost[sym]
		if !qty.Equal(a.qty[sym]) {
			out = a.cost[sym].Mul(qty).Div(a.qty[sym]).Round(2)
		}
		a.qty[sym], a.cost[sym], a.cash = a.qty[sym].Sub(qty), a.cost[sym].Sub(out), a.cash.Add(cash)
		a.realized = a.realized.Add(cash.Sub(out))
	}
	l.checkCash(user, a, dollars(m[5]), text, lost)
}

// checkCash compares the cash a confirmation reports with the model. A
// difference after a lost confirmation is the known replay (see Known).
func (l *life) checkCash(user int64, a *account, said decimal.Decimal, text string, lost bool) {
	if a.cash.Equal(said) {
		return
	}
	checker := "money"
	if lost {
		checker = ReplayedTrade
	}
	if l.fail(checker, "user %d: %q, but the confirmations so far add up to cash %s", user, text, a.cash.StringFixed(2)) {
		l.resyncMoney(user)
	}
}

// checkReplay compares a user's stored portfolio with the model after a
// step whose confirmation Telegram refused: the run that applied the
// trade may have lost its reply, and the redelivery's answer (a refusal,
// or another confirmation) does not tell the model of it.
func (l *life) checkReplay(user int64) {
	p, _, err := trading.Load(context.Background(), l.cfg.Store.For("coin"), user)
	if err != nil {
		l.t.Fatal(err)
	}
	if diff := differences(p, l.money.of(user)); len(diff) > 0 {
		l.fail(ReplayedTrade, "user %d after a lost confirmation: %s", user, strings.Join(diff, "; "))
		l.resyncMoney(user)
	}
}

// resyncMoney takes the stored portfolio as the truth from here on, after
// a known bug was counted.
func (l *life) resyncMoney(user int64) {
	p, _, err := trading.Load(context.Background(), l.cfg.Store.For("coin"), user)
	if err != nil {
		l.t.Fatal(err)
	}
	a := l.money.of(user)
	a.cash, a.invested, a.realized = p.Cash, p.Invested, p.Realized
	clear(a.qty)
	clear(a.cost)
	for sym, h := range p.Holdings {
		a.qty[sym], a.cost[sym] = h.Qty, h.Cost
	}
}

// checkPortfolios: each stored portfolio is what its confirmations say,
// to the cent and the satoshi.
func (l *life) checkPortfolios() {
	store := l.cfg.Store.For("coin")
	for user, a := range l.money.accounts {
		p, _, err := trading.Load(context.Background(), store, user)
		if err != nil {
			l.fail("money", "user %d: %v", user, err)
		}
		if diff := differences(p, a); len(diff) > 0 {
			l.fail("money", "user %d's portfolio is not what the bot confirmed: %s", user, strings.Join(diff, "; "))
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
