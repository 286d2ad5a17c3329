package sim

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
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

// desk is how a trading module confirms: its cash places, and its money
// and units as its replies write them.
type desk struct {
	places                                   int32
	toppedUp, traded, cashDividend, stockDiv *regexp.Regexp
	symbol                                   map[string]string // a reply's unit -> the held symbol ("luong" -> SJC)
}

func newDesk(places int32, money string, symbol map[string]string) *desk {
	at := strings.Replace(money, "(", "(?:", 1)
	return &desk{places: places, symbol: symbol,
		toppedUp:     regexp.MustCompile(`^Topped up ` + money + `\. Cash: ` + money + `\.$`),
		traded:       regexp.MustCompile(`^(Bought|Sold) ([\d.]+) (\w+) at ` + at + ` for ` + money + `\. Cash: ` + money + `\.$`),
		cashDividend: regexp.MustCompile(`^Recorded a cash dividend of ` + money + ` on (\w+)\. Cash: ` + money + `\.$`),
		stockDiv:     regexp.MustCompile(`^Recorded a stock dividend of (\d+) (\w+)\. You hold (\d+) \w+\.$`),
	}
}

// desks are the trading modules the life trades on.
var desks = map[string]*desk{
	"coin":  newDesk(2, `\$([\d,.]+)`, nil),
	"gold":  newDesk(0, `([\d,]+) VND`, map[string]string{"luong": "SJC"}),
	"stock": newDesk(0, `([\d,]+) VND`, nil),
}

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
	c.after = l.traded(book{"coin", user})
	return c
}

// traded reads the answer of a trading command on b: each confirmation
// moves the model.
func (l *life) traded(b book) func([]Call) {
	return func(calls []Call) {
		lost := false // a confirmation Telegram refused, then the update ran again
		for _, call := range calls {
			switch {
			case call.OK && call.Method == "sendMessage":
				l.hist.count(b.ns+"-"+answerKind(call.Text), 1)
				l.confirmed(b, call.Text, lost)
			case call.Method == "sendMessage":
				lost = true
			}
		}
		if lost {
			l.checkReplay(b)
		}
	}
}

// answerKind names what a trading reply tells, for the summary: a
// change confirmed, a refusal, or where the price came from (or that none
// did).
func answerKind(text string) string {
	for _, k := range [][2]string{
		{"Topped up ", "confirmed"}, {"Bought ", "confirmed"}, {"Sold ", "confirmed"}, {"Recorded ", "confirmed"},
		{"Not done: ", "refused"}, {"Unknown ", "unknown"},
	} {
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

// confirmed applies one confirmation on b and checks what it reports.
func (l *life) confirmed(b book, text string, lost bool) {
	a, d := l.money.of(b), desks[b.ns]
	if m := d.toppedUp.FindStringSubmatch(text); m != nil {
		amount := dollars(m[1])
		a.cash, a.invested = a.cash.Add(amount), a.invested.Add(amount)
		l.checkSaid(b, "cash", a.cash, dollars(m[2]), text, lost)
		return
	}
	if m := d.cashDividend.FindStringSubmatch(text); m != nil {
		amount := dollars(m[1])
		a.cash, a.realized = a.cash.Add(amount), a.realized.Add(amount)
		l.checkSaid(b, "cash", a.cash, dollars(m[3]), text, lost)
		return
	}
	if m := d.stockDiv.FindStringSubmatch(text); m != nil {
		sym := m[2]
		a.qty[sym] = a.qty[sym].Add(decimal.RequireFromString(m[1]))
		l.checkSaid(b, sym, a.qty[sym], decimal.RequireFromString(m[3]), text, lost)
		return
	}
	m := d.traded.FindStringSubmatch(text)
	if m == nil {
		return
	}
	qty, sym, cash := decimal.RequireFromString(m[2]), m[3], dollars(m[4])
	if s, ok := d.symbol[sym]; ok {
		sym = s
	}
	if m[1] == "Bought" {
		a.qty[sym], a.cost[sym], a.cash = a.qty[sym].Add(qty), a.cost[sym].Add(cash), a.cash.Sub(cash)
	} else {
		out := a.cost[sym]
		if !qty.Equal(a.qty[sym]) {
			out = a.cost[sym].Mul(qty).Div(a.qty[sym]).Round(d.places)
		}
		a.qty[sym], a.cost[sym], a.cash = a.qty[sym].Sub(qty), a.cost[sym].Sub(out), a.cash.Add(cash)
		a.realized = a.realized.Add(cash.Sub(out))
	}
	l.checkSaid(b, "cash", a.cash, dollars(m[5]), text, lost)
}

// checkSaid compares what a confirmation reports (the cash, or a holding
// of what) with the model. A difference after a lost confirmation is the
// replay (ReplayedTrade).
func (l *life) checkSaid(b book, what string, want, said decimal.Decimal, text string, lost bool) {
	if want.Equal(said) {
		return
	}
	checker := "money"
	if lost {
		checker = ReplayedTrade
	}
	if l.fail(checker, "%s user %d: %q, but the confirmations so far add up to %s %s", b.ns, b.user, text, what, want) {
		l.resyncMoney(b)
	}
}
