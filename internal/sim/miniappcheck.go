package sim

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/web"
)

// readMe checks user's /app/api/me answer against the money model: it
// names user and no one else, and each market's portfolio is the one the
// bot confirmed, compared as the end of a day compares the stored one
// (differences). It returns which markets the answer says user has a
// portfolio in, and what is wrong with it.
func readMe(body string, user int64, m *moneyModel) (found map[string]bool, problems []string) {
	var me struct {
		User struct {
			ID int64 `json:"id"`
		} `json:"user"`
		Modules map[string]json.RawMessage `json:"modules"`
	}
	if err := json.Unmarshal([]byte(body), &me); err != nil {
		return nil, []string{fmt.Sprintf("not the app's JSON: %v", err)}
	}
	if me.User.ID != user {
		problems = append(problems, fmt.Sprintf("the answer is user %d's", me.User.ID))
	}
	found = map[string]bool{}
	for _, ns := range slices.Sorted(maps.Keys(cashPlaces)) {
		raw, ok := me.Modules[ns]
		if !ok {
			problems = append(problems, ns+": no portfolio in the answer")
			continue
		}
		var w web.WebPortfolio
		if err := json.Unmarshal(raw, &w); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", ns, err))
			continue
		}
		found[ns] = w.Found
		a, known := m.accounts[book{ns, user}]
		if !known {
			a = &account{qty: map[string]decimal.Decimal{}, cost: map[string]decimal.Decimal{}}
		}
		p, err := shown(w, a)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", ns, err))
			continue
		}
		if diff := differences(p, a); len(diff) > 0 {
			problems = append(problems, fmt.Sprintf("%s: not what the bot confirmed: %s", ns, strings.Join(diff, "; ")))
		}
	}
	return found, problems
}

// shown is the portfolio a page's answer shows, as the store holds one.
// The page shows no realized profit: that one figure it cannot
// contradict, and it is taken as the model's.
func shown(w web.WebPortfolio, a *account) (*trading.Portfolio, error) {
	if w.Market == "" {
		return nil, fmt.Errorf("the answer names no market")
	}
	p := &trading.Portfolio{Cash: w.Cash.Value, Invested: w.Invested.Value, Realized: a.realized, Holdings: map[string]trading.Holding{}}
	if !w.Found {
		p.Realized = decimal.Zero
		return p, nil
	}
	for _, h := range w.Holdings {
		qty, err := decimal.NewFromString(h.Qty)
		if err != nil {
			return nil, fmt.Errorf("holding %s: quantity %q: %w", h.Symbol, h.Qty, err)
		}
		if _, twice := p.Holdings[h.Symbol]; twice {
			return nil, fmt.Errorf("holding %s shown twice", h.Symbol)
		}
		p.Holdings[h.Symbol] = trading.Holding{Qty: qty, Cost: h.Cost.Value}
	}
	return p, nil
}

// checkBoard: a board shown is the group's, ranked from 1.
func checkBoard(body string, chat int64) string {
	var b web.WebBoard
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		return fmt.Sprintf("not the app's JSON: %v", err)
	}
	if b.Chat != chat {
		return fmt.Sprintf("the board of %d", b.Chat)
	}
	if len(b.Rows) == 0 {
		return "no rows, though the user traded there"
	}
	for i, r := range b.Rows {
		if r.Rank != i+1 {
			return fmt.Sprintf("row %d ranked %d", i+1, r.Rank)
		}
	}
	return ""
}
