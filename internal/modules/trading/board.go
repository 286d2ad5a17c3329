package trading

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Everyone is the board of the users who opted in (Portfolio.Listed), the
// one a private chat shows; any other scope is a group's chat id.
const Everyone int64 = 0

// ChangeDays is the span of a board's change: the value now against the
// daily value recorded when the day this many days ago closed.
const ChangeDays = 7

// changeSlack is how many days older than ChangeDays a recorded value may
// be and still be the base of the change (a day the daily job missed); an
// older one is no base, and the change is unknown.
const changeSlack = 3

// Row is one portfolio on a board.
type Row struct {
	User int64
	Name string // the owner's latest name ("" when none is known)
	// Value is cash plus holdings at current prices (a holding without a
	// price now at cost), as /<market>_stats counts it.
	Value decimal.Decimal
	// Change is the profit made since Since: the value's rise less what
	// was deposited in between, so a top-up is no gain. HasChange is false
	// when no daily value is old enough (a portfolio younger than a week).
	Change    decimal.Decimal
	Pct       decimal.Decimal // Change in percent of the value at Since plus the deposits since
	Since     string          // the day the change counts from ("2026-11-26")
	HasChange bool
	Listed    bool
}

// Board ranks the paper portfolios of a market by value, highest first
// (ties by user id). Its rule: for a group (scope = the group's chat id)
// every user who changed their portfolio in that group (a trade, a top-up,
// a dividend: Apply records it in the same write) is on it; for Everyone,
// every user who opted in. A portfolio is valued as the desk values it
// (Portfolio.Value at the prices prices gives, the desk's Quotes.Known
// with its sources and fallbacks), and prices is asked once per symbol
// per board, however many members hold it. The change is over ChangeDays
// from the daily value records (Values), deposits left out. m is the
// market's rounding; now fixes the day the change counts from.
func Board(ctx context.Context, s storage.KVStore, m Market, prices func(sym string) (decimal.Decimal, bool), scope int64, now time.Time) ([]Row, error) {
	users, err := usersUnder(ctx, s, portfolioPrefix)
	if err != nil {
		return nil, err
	}
	prices = OncePerSymbol(prices)
	var rows []Row
	for _, u := range users {
		p, found, err := Load(ctx, s, u)
		if err != nil {
			return nil, fmt.Errorf("board: %w", err)
		}
		if !found || (scope == Everyone && !p.Listed) || (scope != Everyone && !p.inChat(scope)) {
			continue
		}
		row, err := rowOf(ctx, s, m, prices, u, p, now)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	SortByValue(rows)
	return rows, nil
}

// RowOf is user's row as a board would show it (found false: no
// portfolio), for the asker of a board they are not on.
func RowOf(ctx context.Context, s storage.KVStore, m Market, prices func(sym string) (decimal.Decimal, bool), user int64, now time.Time) (Row, bool, error) {
	p, found, err := Load(ctx, s, user)
	if err != nil || !found {
		return Row{}, false, err
	}
	row, err := rowOf(ctx, s, m, prices, user, p, now)
	return row, err == nil, err
}

func rowOf(ctx context.Context, s storage.KVStore, m Market, prices func(sym string) (decimal.Decimal, bool), user int64, p *Portfolio, now time.Time) (Row, error) {
	v := p.Value(m, prices)
	row := Row{User: user, Name: p.Name, Value: v.Total, Listed: p.Listed}
	pts, err := Points(ctx, s, user)
	if err != nil {
		return Row{}, fmt.Errorf("board: values of %d: %w", user, err)
	}
	today := now.In(ICT)
	target := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, ICT).AddDate(0, 0, -ChangeDays)
	oldest := target.AddDate(0, 0, -changeSlack).Format(time.DateOnly)
	day := target.Format(time.DateOnly)
	// The latest point on or before the day, within the slack.
	i, _ := slices.BinarySearchFunc(pts, day, func(pt DayPoint, d string) int { return cmp.Compare(pt.Day, d) })
	if i < len(pts) && pts[i].Day == day {
		i++
	}
	if i == 0 || pts[i-1].Day < oldest {
		return row, nil
	}
	base := pts[i-1]
	then := base.Cash.Add(base.Holdings)
	deposited := p.Invested.Sub(base.Deposited)
	row.Change = v.Total.Sub(then).Sub(deposited)
	row.Since, row.HasChange = base.Day, true
	if denom := then.Add(deposited); denom.IsPositive() {
		row.Pct = row.Change.Mul(decimal.NewFromInt(100)).Div(denom)
	}
	return row, nil
}

// SortByValue orders rows by value, highest first, ties by user id.
func SortByValue(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int { return cmp.Or(b.Value.Cmp(a.Value), cmp.Compare(a.User, b.User)) })
}

// SortByChange orders rows by their change in percent, highest first;
// rows without a change last, each part then by value.
func SortByChange(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		if a.HasChange != b.HasChange {
			if a.HasChange {
				return -1
			}
			return 1
		}
		return cmp.Or(b.Pct.Cmp(a.Pct), b.Value.Cmp(a.Value), cmp.Compare(a.User, b.User))
	})
}

// OncePerSymbol is prices asking its source at most once per symbol, for
// one board or one check (safe for concurrent use).
func OncePerSymbol(prices func(sym string) (decimal.Decimal, bool)) func(sym string) (decimal.Decimal, bool) {
	type answer struct {
		price decimal.Decimal
		ok    bool
	}
	var mu sync.Mutex
	seen := map[string]answer{}
	return func(sym string) (decimal.Decimal, bool) {
		mu.Lock()
		defer mu.Unlock()
		a, ok := seen[sym]
		if !ok {
			a.price, a.ok = prices(sym)
			seen[sym] = a
		}
		return a.price, a.ok
	}
}
