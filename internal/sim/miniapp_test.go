package sim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading/web"
)

// appAnswer is user's /app/api/me as the app writes it, holding what the
// model below says, before change spoils it.
func appAnswer(t *testing.T, user int64, change func(me map[string]*web.WebPortfolio)) (string, *moneyModel) {
	t.Helper()
	m := newMoneyModel()
	a := m.of(book{"coin", 1001})
	a.cash, a.invested, a.realized = decimal.RequireFromString("700.5"), decimal.RequireFromString("1000"), decimal.RequireFromString("5")
	a.qty["BTC"], a.cost["BTC"] = decimal.RequireFromString("0.01"), decimal.RequireFromString("304.5")
	m.of(book{"gold", 1001}) // asked a price, never topped up
	amount := func(s string) web.Amount { return web.Amount{Value: decimal.RequireFromString(s), Text: s} }
	me := map[string]*web.WebPortfolio{
		"coin": {Market: "coin", Found: true, Cash: amount("700.5"), Invested: amount("1000"),
			Holdings: []web.WebHolding{{Symbol: "BTC", Qty: "0.01", Cost: amount("304.5")}}},
		"gold":  {Market: "gold", Start: "/gold_topup 100000000"},
		"stock": {Market: "stock", Start: "/stock_topup 100000000"},
	}
	if change != nil {
		change(me)
	}
	body, err := json.Marshal(map[string]any{"user": map[string]any{"id": user, "first_name": "User"}, "modules": me})
	if err != nil {
		t.Fatal(err)
	}
	return string(body), m
}

func TestTheMiniAppCheckerFailsAnAnswerTheMoneyModelContradicts(t *testing.T) {
	for _, c := range []struct {
		name   string
		user   int64 // whose answer it is
		change func(me map[string]*web.WebPortfolio)
		want   string // in the one problem named; "" when there is none
	}{
		{name: "the bot's confirmations, shown as they are, pass", user: 1001},
		{name: "cash a cent off fails", user: 1001, want: "coin: not what the bot confirmed: cash/invested/realized 700.51",
			change: func(me map[string]*web.WebPortfolio) { me["coin"].Cash.Value = decimal.RequireFromString("700.51") }},
		{name: "invested not what was topped up fails", user: 1001, want: "coin: not what the bot confirmed",
			change: func(me map[string]*web.WebPortfolio) {
				me["coin"].Invested.Value = decimal.RequireFromString("900")
			}},
		{name: "a holding's quantity off fails", user: 1001, want: "BTC 0.02 at cost 304.5, confirmed 0.01",
			change: func(me map[string]*web.WebPortfolio) { me["coin"].Holdings[0].Qty = "0.02" }},
		{name: "a holding's cost off fails", user: 1001, want: "BTC 0.01 at cost 300, confirmed 0.01 at 304.5",
			change: func(me map[string]*web.WebPortfolio) {
				me["coin"].Holdings[0].Cost.Value = decimal.RequireFromString("300")
			}},
		{name: "a holding the bot never confirmed fails", user: 1001, want: "ETH 1 never confirmed",
			change: func(me map[string]*web.WebPortfolio) {
				me["coin"].Holdings = append(me["coin"].Holdings, web.WebHolding{Symbol: "ETH", Qty: "1"})
			}},
		{name: "a confirmed holding left out fails", user: 1001, want: "BTC 0 at cost 0, confirmed 0.01",
			change: func(me map[string]*web.WebPortfolio) { me["coin"].Holdings = nil }},
		{name: "a portfolio the bot confirmed shown as none fails", user: 1001, want: "coin: not what the bot confirmed",
			change: func(me map[string]*web.WebPortfolio) { *me["coin"] = web.WebPortfolio{Market: "coin"} }},
		{name: "money in a market never topped up fails", user: 1001, want: "gold: not what the bot confirmed",
			change: func(me map[string]*web.WebPortfolio) {
				me["gold"].Found, me["gold"].Cash.Value = true, decimal.RequireFromString("1")
			}},
		{name: "a market left out of the answer fails", user: 1001, want: "stock: no portfolio in the answer",
			change: func(me map[string]*web.WebPortfolio) { delete(me, "stock") }},
		{name: "another user's answer fails", user: 1002, want: "the answer is user 1002's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, m := appAnswer(t, c.user, c.change)
			_, problems := readMe(body, 1001, m)
			switch {
			case c.want == "" && len(problems) > 0:
				t.Fatalf("problems %q in an answer the model agrees with", problems)
			case c.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], c.want)):
				t.Fatalf("problems %q, want one naming %q", problems, c.want)
			}
		})
	}
}

func TestTheMiniAppCheckerReadsWhichMarketsTheUserHas(t *testing.T) {
	body, m := appAnswer(t, 1001, nil)
	found, problems := readMe(body, 1001, m)
	if len(problems) > 0 || !found["coin"] || found["gold"] || found["stock"] {
		t.Fatalf("found %v (problems %q), want coin only", found, problems)
	}
}

func TestTheMiniAppCheckerFailsABoardOfAnotherGroupOrMisranked(t *testing.T) {
	for _, c := range []struct {
		name  string
		board web.WebBoard
		want  string
	}{
		{"the group's board, ranked from 1, passes", web.WebBoard{Chat: -1001, Rows: []web.WebBoardRow{{Rank: 1}, {Rank: 2}}}, ""},
		{"another group's board fails", web.WebBoard{Chat: -1002, Rows: []web.WebBoardRow{{Rank: 1}}}, "the board of -1002"},
		{"an empty board fails", web.WebBoard{Chat: -1001}, "no rows"},
		{"a rank skipped fails", web.WebBoard{Chat: -1001, Rows: []web.WebBoardRow{{Rank: 1}, {Rank: 3}}}, "row 2 ranked 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(c.board)
			got := checkBoard(string(body), -1001)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("checkBoard said %q, want %q", got, c.want)
			}
		})
	}
}
