package telegram

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Telegram's limit for one group: "your bot will not be able to send more
// than 20 messages per minute to the same group" (Bot FAQ). It is a window,
// not a bucket: a bucket of 20 refilled every 3 s sends the 21st message
// 3 s after a burst, which Telegram answers with 429 retry_after 57.
const groupSends, groupWindow = 20, time.Minute

// window allows at most n sends in any span of length per. It holds the
// times sends went, so it is booked only at the moment of a send: Telegram
// counts a message from when it arrives, and a booking ahead of a later
// wait (the global rate's) would count it too early.
type window struct {
	n   int
	per time.Duration
	mu  sync.Mutex
	at  []time.Time // the sends of the last per, oldest first
}

func newWindow(n int, per time.Duration) *window { return &window{n: n, per: per} }

// take counts a send at now if the window allows one; if not, it says when
// the window will.
func (w *window) take(now time.Time) (next time.Time, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.at) > 0 && !w.at[0].Add(w.per).After(now) {
		w.at = w.at[1:]
	}
	if len(w.at) >= w.n {
		if next = w.at[len(w.at)-w.n].Add(w.per); next.After(now) {
			return next, false
		}
	}
	// Concurrent sends read the clock before the lock: keep the times in
	// order by counting a send no earlier than the last (later is safe).
	at := now
	if len(w.at) > 0 && w.at[len(w.at)-1].After(at) {
		at = w.at[len(w.at)-1]
	}
	w.at = append(w.at, at)
	return now, true
}

// perChat returns chatID's pacer from m, made by mk the first time.
func perChat[T any](c *Client, m *map[int64]T, chatID int64, mk func() T) T {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := (*m)[chatID]
	if !ok {
		if len(*m) > 10_000 { // a broadcast's worth; forget idle chats
			*m = map[int64]T{}
		}
		p = mk()
		(*m)[chatID] = p
	}
	return p
}

// paceSend waits for the global rate and then, for a group, for its
// window, taken at the moment the send goes; a wait for the window is
// followed by the global rate again, as other sends went meanwhile. A wait
// the update's deadline cannot cover is not waited out: it is a FloodError,
// so the update comes back later.
func (c *Client) paceSend(ctx context.Context, w *window) error {
	for {
		if err := c.paceRate(ctx, c.global); err != nil || w == nil {
			return err
		}
		now := c.now()
		next, ok := w.take(now)
		if ok {
			return nil
		}
		if dl, has := ctx.Deadline(); has && next.After(dl) {
			return &app.FloodError{RetryAfter: next.Sub(now)}
		}
		if err := c.wait(ctx, next.Sub(now)); err != nil {
			return err
		}
	}
}

// paceRate waits for a token of l, on the same terms as paceSend.
func (c *Client) paceRate(ctx context.Context, l *rate.Limiter) error {
	now := c.now()
	r := l.ReserveN(now, 1)
	d := r.DelayFrom(now)
	if d <= 0 {
		return nil
	}
	if dl, ok := ctx.Deadline(); ok && now.Add(d).After(dl) {
		r.CancelAt(now)
		return &app.FloodError{RetryAfter: d}
	}
	if err := c.wait(ctx, d); err != nil {
		r.CancelAt(now)
		return err
	}
	return nil
}
