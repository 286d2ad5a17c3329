package telegram

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-telegram/bot"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Error classes only the runtimes act on; the ones modules act on
// (blocked, chat or thread not found, flood) are app's.
var (
	// ErrConflict: getUpdates while a webhook is set or another poller runs (409).
	ErrConflict = errors.New("telegram: conflict with another update consumer")
	// ErrUnauthorized: the token is wrong or revoked (401).
	ErrUnauthorized = errors.New("telegram: unauthorized")
)

// classify maps an error from go-telegram/bot onto the error classes. 403,
// 401 and 409 are told apart by status code. Telegram reports "chat not found"
// and "message thread not found" only as 400 descriptions, so those two are
// recognised here, in this one place.
func classify(method string, err error) error {
	if err == nil {
		return nil
	}
	var class error
	switch {
	case errors.Is(err, bot.ErrorForbidden):
		class = app.ErrBlocked
	case errors.Is(err, bot.ErrorUnauthorized):
		class = ErrUnauthorized
	case errors.Is(err, bot.ErrorConflict):
		class = ErrConflict
	case errors.Is(err, bot.ErrorBadRequest):
		msg := strings.ToLower(err.Error())
		switch {
		case strings.Contains(msg, "thread not found"):
			class = app.ErrThreadNotFound
		case strings.Contains(msg, "chat not found"):
			class = app.ErrChatNotFound
		default:
			class = app.ErrRejected
		}
	default:
		return fmt.Errorf("telegram: %s: %w", method, err)
	}
	return fmt.Errorf("%w (%s: %v)", class, method, err)
}

// retryAfter reports whether err is a 429 and how many seconds to wait.
func retryAfter(err error) (int, bool) {
	var tm *bot.TooManyRequestsError
	if errors.As(err, &tm) {
		return tm.RetryAfter, true
	}
	return 0, false
}
