package sim

import (
	"fmt"
	"math/rand/v2"
)

// stock is a stock command from user, on stock's own portfolio: top-ups
// in whole dong, orders in lots of 100 (and odd ones, refused), dividends
// in shares and in cash, stats and prices, now and then of a ticker no
// exchange lists or of no ticker at all. Its draws are the markets'
// stream's.
func (l *life) stock(user int64, plain func(string) command, r *rand.Rand) command {
	sym := []string{"FPT", "VNM", "VND", "E1VFVN30", "FPT", "VNM", "ZZZ", "fpt"}[r.IntN(8)]
	var c command
	switch x := r.IntN(20); {
	case x < 3:
		c = plain(fmt.Sprintf("/stock_topup %d", (5+r.IntN(300))*1_000_000+r.IntN(1000)*1000))
	case x < 8:
		c = plain(fmt.Sprintf("/stock_buy %s %s", sym, []string{"100", "200", "500", "1000", "150"}[r.IntN(5)]))
	case x < 11:
		c = plain(fmt.Sprintf("/stock_sell %s %s", sym, []string{"all", "100", "300", "50"}[r.IntN(4)]))
	case x < 12:
		c = plain(fmt.Sprintf("/stock_income_stock %s %d", sym, []int{7, 15, 100}[r.IntN(3)]))
	case x < 13:
		c = plain(fmt.Sprintf("/stock_income_vnd %s %d", sym, (1+r.IntN(500))*1000))
	case x < 16:
		c = plain("/stock_stats")
	case x < 19:
		c = plain("/stock_price " + sym)
	default:
		c = plain("/stock_price F")
	}
	c.after = l.traded(book{"stock", user})
	return c
}
