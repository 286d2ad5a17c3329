package telegram_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// clock is time the client and the fake share; a wait moves it, so pacing
// is tested without sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// until moves the clock to t unless it is past it already.
func (c *clock) until(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.t) {
		c.t = t
	}
}

func (c *clock) wait(_ context.Context, d time.Duration) error {
	c.until(c.Now().Add(d))
	return nil
}

// pacedClient is a client and a fake on one clock, the fake enforcing
// Telegram's rates: a 429 from it means the client's pacing is wrong.
func pacedClient(t *testing.T, opts ...telegram.Option) (*telegram.Client, *telegramtest.Server, *clock) {
	t.Helper()
	clk := newClock()
	srv := telegramtest.New(t, telegramtest.WithTelegramLimits(), telegramtest.WithClock(clk.Now))
	base := []telegram.Option{telegram.WithAPIURL(srv.URL), telegram.WithClock(clk.Now), telegram.WithWait(clk.wait)}
	c, err := telegram.New(srv.Token, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv, clk
}

func TestAGroupGetsAtMost20SendsInAnyMinute(t *testing.T) {
	s := time.Second
	burst := func(at time.Duration, n int) []time.Duration {
		out := make([]time.Duration, n)
		for i := range out {
			out[i] = at
		}
		return out
	}
	every := func(step time.Duration, n int) []time.Duration {
		out := make([]time.Duration, n)
		for i := range out {
			out[i] = time.Duration(i) * step
		}
		return out
	}
	cat := func(parts ...[]time.Duration) []time.Duration {
		var out []time.Duration
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name      string
		try, want []time.Duration // when each send is asked for, when it goes
	}{
		{"a burst of 20 goes at once; the 21st waits for the first to leave the minute (not 3 s)",
			burst(0, 21), cat(burst(0, 20), burst(60*s, 1))},
		{"after a burst of 20 the next 20 go a minute later, the 41st a minute after that",
			burst(0, 41), cat(burst(0, 20), burst(60*s, 20), burst(120*s, 1))},
		{"one every 3 s never waits", every(3*s, 30), every(3*s, 30)},
		{"two half bursts half a minute apart; the 21st waits for the first half to leave",
			cat(burst(0, 10), burst(30*s, 10), burst(31*s, 1)), cat(burst(0, 10), burst(30*s, 10), burst(60*s, 1))},
		{"a quiet minute lets a full burst through again",
			cat(burst(0, 20), burst(60*s, 20)), cat(burst(0, 20), burst(60*s, 20))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The global rate spaces a burst by 1/30 s; unlimited, the
			// window's own timing shows.
			c, srv, clk := pacedClient(t, telegram.WithRates(rate.Inf, rate.Inf))
			start := clk.Now()
			for i, at := range tt.try {
				clk.until(start.Add(at))
				if _, err := c.Send(t.Context(), app.Message{ChatID: -100777, Text: "x"}); err != nil {
					t.Fatalf("send %d: %v", i, err)
				}
			}
			calls := srv.Calls("sendMessage")
			if len(calls) != len(tt.want) {
				t.Fatalf("%d sends reached Telegram, want %d", len(calls), len(tt.want))
			}
			for i, call := range calls {
				if got := call.At.Sub(start); got != tt.want[i] {
					t.Fatalf("send %d went at +%s, want +%s", i, got, tt.want[i])
				}
			}
			if n := srv.Limited(); n != 0 {
				t.Fatalf("Telegram answered %d sends with 429", n)
			}
		})
	}
}

func TestAGroupsWaitPastTheUpdatesDeadlineIsAFloodError(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	var flood *app.FloodError
	sent := 0
	for range 25 {
		_, err := c.Send(ctx, app.Message{ChatID: -1001, Text: "x"})
		if errors.As(err, &flood) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sent++
	}
	if sent != 20 || flood == nil || flood.RetryAfter <= 50*time.Second {
		t.Fatalf("sent %d to one group within a second, then %v: want 20, then a wait of about a minute", sent, flood)
	}
	if _, err := c.Send(t.Context(), app.Message{ChatID: 42, Text: "a private chat is not held back"}); err != nil {
		t.Fatal(err)
	}
}

func TestABroadcastAtTheDefaultRatesSeesNo429(t *testing.T) {
	c, srv, _ := pacedClient(t) // default: 30 messages a second overall, 1 a second per chat in bulk
	for i := range 45 {
		if _, err := c.Send(t.Context(), app.Message{ChatID: int64(i + 1), Text: "broadcast", Bulk: true}); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		if _, err := c.Send(t.Context(), app.Message{ChatID: -100500, Text: "and the group"}); err != nil {
			t.Fatalf("group send %d: %v", i, err)
		}
	}
	if n := srv.Limited(); n != 0 {
		t.Fatalf("Telegram answered %d sends with 429; the client's pacing should keep under its limits", n)
	}
}
