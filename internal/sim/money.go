package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// account is one portfolio as the bot's confirmations tell it: every
// top-up, buy, sell and dividend it confirmed, applied with the engine's
// own rounding rules (cash to its market's places, cost basis leaving pro
// rata).
type account struct {
	cash, invested, realized decimal.Decimal
	qty, cost                map[string]decimal.Decimal
}

// book names a portfolio: each trading module keeps its own per user, in
// its own namespace (coin, gold, stock), as the trading engine does.
type book struct {
	ns   string
	user int64
}

type moneyModel struct{ accounts map[book]*account }

func newMoneyModel() *moneyModel { return &moneyModel{accounts: map[book]*account{}} }

func (m *moneyModel) of(b book) *account {
	a, ok := m.accounts[b]
	if !ok {
		a = &account{qty: map[string]decimal.Decimal{}, cost: map[string]decimal.Decimal{}}
		m.accounts[b] = a
	}
	return a
}

// cashPlaces are the decimals of each trading module's cash, the places a
// sale's cost basis is rounded to.
var cashPlaces = map[string]int32{"coin": 2, "gold": 0, "stock": 0}

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
	c.after = l.traded(book{"coin", user})
	return c
}

// traded reads what a trading command on b changed, from the store: the
// trade its update made (fact) moves the model once a reply to it reached
// the user. Then the stored portfolio must be the model, and the user must
// have been told the reply the change earned, even when Telegram refused
// a first reply and the update ran again (ReplayedTrade).
func (l *life) traded(b book) func(id int64, calls []Call) {
	return func(id int64, calls []Call) {
		reached, lost := []string{}, false
		for _, call := range calls {
			switch {
			case call.OK && call.Method == "sendMessage":
				reached = append(reached, call.Text)
			case call.Method == "sendMessage":
				lost = true
			}
		}
		if len(reached) == 0 && !lost {
			return
		}
		p := l.load(b)
		t, kept, changed := fact(p, id)
		for _, text := range reached {
			l.hist.count(b.ns+"-"+answerKind(text, changed), 1)
		}
		checker := "money"
		if lost {
			checker = ReplayedTrade
		}
		if changed && len(reached) > 0 {
			l.money.of(b).move(t, cashPlaces[b.ns])
			if i := slices.IndexFunc(reached, func(s string) bool { return s != kept }); i >= 0 {
				l.fail(checker, "%s user %d: update %d's change earned %q, the user was told %q", b.ns, b.user, id, kept, reached[i])
			}
		}
		if diff := differences(p, l.money.of(b)); len(diff) > 0 {
			l.fail(checker, "%s user %d after update %d: %s", b.ns, b.user, id, strings.Join(diff, "; "))
			l.resyncMoney(b)
		}
	}
}

// fact is the change update id made to p, if p remembers it, and the reply
// it earned. Every change trading.Apply makes logs one trade in the same
// write as its app.Once entry, so the k-th change from the end is the k-th
// trade from the end.
func fact(p *trading.Portfolio, id int64) (t trading.Trade, reply string, ok bool) {
	i := slices.IndexFunc(p.Applied, func(a app.Applied[string]) bool { return a.ID == id })
	j := len(p.History) - (len(p.Applied) - i)
	if i < 0 || j < 0 {
		return t, "", false
	}
	return p.History[j], p.Applied[i].Reply, true
}

// move applies one trade to the account with the engine's rounding: cash
// moves by the trade's, a sale takes its cost basis out pro rata (to
// places) and realises the rest.
func (a *account) move(t trading.Trade, places int32) {
	sym := t.Symbol
	switch t.Kind {
	case "topup":
		a.invested = a.invested.Add(t.Cash)
	case "buy":
		a.qty[sym], a.cost[sym] = a.qty[sym].Add(t.Qty), a.cost[sym].Sub(t.Cash)
	case "sell":
		out := a.cost[sym]
		if !t.Qty.Equal(a.qty[sym]) {
			out = out.Mul(t.Qty).Div(a.qty[sym]).Round(places)
		}
		a.qty[sym], a.cost[sym] = a.qty[sym].Sub(t.Qty), a.cost[sym].Sub(out)
		a.realized = a.realized.Add(t.Cash.Sub(out))
	case "dividend": // in cash (realised) or in shares (at no cost)
		a.realized = a.realized.Add(t.Cash)
		if !t.Qty.IsZero() {
			a.qty[sym] = a.qty[sym].Add(t.Qty)
		}
	}
	a.cash = a.cash.Add(t.Cash)
}

// answerKind names what a trading reply tells, for the summary: a change
// confirmed, a refusal, or where the price came from (or that none did).
func answerKind(text string, changed bool) string {
	if changed {
		return "confirmed"
	}
	for _, k := range [][2]string{{"Not done: ", "refused"}, {"Unknown ", "unknown"}} {
		if strings.HasPrefix(text, k[0]) {
			return k[1]
		}
	}
	for _, k := range [][2]string{{"price right now", "no-price"}, {"(world spot)", "world-spot"}, {"(VCI)", "vci"}, {"(SSI)", "ssi"}} {
		if strings.Contains(text, k[0]) {
			return k[1]
		}
	}
	return "other"
}
