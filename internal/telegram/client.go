// Package telegram is miti99bot's Bot API client: go-telegram/bot for the
// calls, plus what the bot needs around them: flood control (a global rate,
// a per-chat rate for bulk sends, a rolling minute per group, bounded 429
// retries), error classes for modules and the chat lifecycle (classify.go),
// and a getUpdates call the container's poller drives itself.
package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot"
	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/redact"
)

// DefaultAPIURL is Telegram's Bot API.
const DefaultAPIURL = "https://api.telegram.org"

// The client is the Messenger of the core and modules.
var _ app.Messenger = (*Client)(nil)

// Client talks to one bot's Bot API. It is safe for concurrent use.
type Client struct {
	bot    *bot.Bot
	token  string
	apiURL string
	http   *http.Client
	log    *slog.Logger

	global  *rate.Limiter
	perChat rate.Limit
	mu      sync.Mutex
	chats   map[int64]*rate.Limiter // bulk sends, per chat
	groups  map[int64]*window       // every send to a group, per group
	// groupSends in any groupWindow to one group; 0: no group limit.
	groupSends  int
	groupWindow time.Duration

	budget time.Duration
	wait   func(ctx context.Context, d time.Duration) error
	now    func() time.Time

	lastUndecodable atomic.Int64 // the newest undecodable update logged

	metrics *metrics.Metrics // nil: none
}

// Option configures New.
type Option func(*Client)

// WithAPIURL points the client at another Bot API server (tests, self-hosted).
func WithAPIURL(u string) Option {
	return func(c *Client) { c.apiURL = strings.TrimRight(u, "/") }
}

// WithMetrics counts every Bot API call by method and result into m.
func WithMetrics(m *metrics.Metrics) Option { return func(c *Client) { c.metrics = m } }

// WithLogger sets the logger for retries and drops.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.log = l } }

// WithRates sets the overall send rate and the per-chat rate of bulk sends
// (defaults: 30/s and 1/s, Telegram's documented limits).
func WithRates(global, perChat rate.Limit) Option {
	return func(c *Client) { c.global = rate.NewLimiter(global, 1); c.perChat = perChat }
}

// WithGroupLimit replaces Telegram's limit of 20 sends per minute to one
// group (n 0: none, for tests of modules whose conversations are faster
// than a real group's).
func WithGroupLimit(n int, per time.Duration) Option {
	return func(c *Client) { c.groupSends, c.groupWindow = n, per }
}

// WithRetryBudget bounds the total time one call may spend waiting out 429s
// (default 30 s); past it the call fails with app.ErrFlood.
func WithRetryBudget(d time.Duration) Option { return func(c *Client) { c.budget = d } }

// WithWait replaces how the client waits out retry_after (tests record it).
func WithWait(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.wait = f }
}

// WithClock replaces the clock the pacing reads (tests, with WithWait
// moving it). Context deadlines are compared with it too.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// New builds a client. It makes no network call: no getMe at start-up.
func New(token string, opts ...Option) (*Client, error) {
	c := &Client{
		token:   token,
		apiURL:  DefaultAPIURL,
		http:    &http.Client{Timeout: 70 * time.Second},
		log:     slog.Default(),
		global:  rate.NewLimiter(30, 1),
		perChat: 1,
		chats:   map[int64]*rate.Limiter{},
		groups:  map[int64]*window{},

		groupSends:  groupSends,
		groupWindow: groupWindow,
		budget:      30 * time.Second,
		wait:        pause.For,
		now:         time.Now,
	}
	for _, o := range opts {
		o(c)
	}
	b, err := bot.New(token,
		bot.WithSkipGetMe(),
		bot.WithServerURL(c.apiURL),
		bot.WithHTTPClient(c.http.Timeout, c.http),
		// go-telegram/bot reports some internal errors through this hook;
		// keep them in our logs, with the token masked.
		bot.WithErrorsHandler(func(err error) {
			c.log.Warn("telegram client", "err", redact.String(err.Error(), token))
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	c.bot = b
	return c, nil
}

// call runs one API call under flood control: the per-chat rate for bulk
// sends, the global rate always, a group's window, and 429 retry_after
// honoured within budget.
func call[T any](ctx context.Context, c *Client, method string, chatID int64, bulk bool, do func(context.Context) (T, error)) (T, error) {
	var zero T
	if bulk {
		l := perChat(c, &c.chats, chatID, func() *rate.Limiter { return rate.NewLimiter(c.perChat, 1) })
		if err := c.paceRate(ctx, l); err != nil {
			return zero, fmt.Errorf("telegram: %s: %w", method, err)
		}
	}
	var group *window
	if chatID < 0 && c.groupSends > 0 { // a group or channel: held to its own pace, whatever sends
		group = perChat(c, &c.groups, chatID, func() *window { return newWindow(c.groupSends, c.groupWindow) })
	}
	var waited time.Duration
	for {
		// A retry after a 429 counts in the group's window again: whether
		// Telegram counted the refused send is not known, so assume it did.
		if err := c.paceSend(ctx, group); err != nil {
			return zero, fmt.Errorf("telegram: %s: %w", method, err)
		}
		res, err := do(ctx)
		a, isAnswer := answerOf(err)
		if !isAnswer || a.Code != http.StatusTooManyRequests {
			err = c.scrub(classify(method, chatID, err))
			c.metrics.BotAPI(method, result(err), 0)
			return res, err
		}
		d := a.wait()
		c.metrics.BotAPI(method, metrics.Flood, d)
		dl, hasDeadline := ctx.Deadline()
		if waited+d > c.budget || (hasDeadline && c.now().Add(d).After(dl)) {
			// Longer than this update may wait: it comes back later.
			return zero, fmt.Errorf("telegram: %s asked to wait %s after %s already waited: %w", method, d, waited, &app.FloodError{RetryAfter: d})
		}
		c.log.Warn("telegram rate limited", "method", method, "chat_id", chatID, "retry_after_s", int(d/time.Second))
		if err := c.wait(ctx, d); err != nil {
			return zero, fmt.Errorf("telegram: %s: %w", method, err)
		}
		waited += d
	}
}

// result is a call's outcome as the metrics name it.
func result(err error) string {
	switch {
	case err == nil:
		return metrics.OK
	case errors.Is(err, app.ErrBlocked):
		return metrics.Blocked
	}
	return metrics.Error
}

// scrub masks the token in any error that reaches callers and logs.
func (c *Client) scrub(err error) error {
	if err == nil {
		return nil
	}
	return redact.Error(err, c.token)
}
