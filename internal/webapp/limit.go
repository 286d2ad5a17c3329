package webapp

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxTracked bounds the users whose rates are kept; past it the table
// starts afresh, which at worst lets a user a fresh burst.
const maxTracked = 10_000

// limiter is a token bucket per user.
type limiter struct {
	mu    sync.Mutex
	rate  rate.Limit
	burst int
	users map[int64]*rate.Limiter
	now   func() time.Time
}

func newLimiter(r rate.Limit, burst int, now func() time.Time) *limiter {
	return &limiter{rate: r, burst: burst, users: map[int64]*rate.Limiter{}, now: now}
}

func (l *limiter) allow(user int64) bool {
	l.mu.Lock()
	lim, ok := l.users[user]
	if !ok {
		if len(l.users) >= maxTracked {
			l.users = map[int64]*rate.Limiter{}
		}
		lim = rate.NewLimiter(l.rate, l.burst)
		l.users[user] = lim
	}
	l.mu.Unlock()
	return lim.AllowN(l.now(), 1)
}
