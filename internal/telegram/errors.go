package telegram

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-telegram/bot"
)

// Error classes callers act on. Modules test them with errors.Is, so no
// module ever matches Telegram's English descriptions itself.
var (
	// ErrBlocked: the bot can no longer write to the chat (403: blocked by
	// the user, kicked from the group, user deactivated). Prune the subscriber.
	ErrBlocked = errors.New("telegram: forbidden to write to this chat")
	// ErrChatNotFound: the chat does not exist for this bot. Prune it.
	ErrChatNotFound = errors.New("telegram: chat not found")
	// ErrThreadNotFound: the forum topic is gone. Prune that topic only.
	ErrThreadNotFound = errors.New("telegram: message thread not found")
	// ErrFlood: Telegram kept answering 429 beyond the retry budget.
	ErrFlood = errors.New("telegram: rate limited beyond the retry budget")
	// ErrConflict: getUpdates while a webhook is set or another poller runs (409).
	ErrConflict = errors.New("telegram: conflict with another update consumer")
	// ErrUnauthorized: the token is wrong or revoked (401).
	ErrUnauthorized = errors.New("telegram: unauthorized")
	// ErrBadRequest: any other 400.
	ErrBadRequest = errors.New("telegram: bad request")
)

// classify maps an error from go-telegram/bot onto the classes above. 403,
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
		class = ErrBlocked
	case errors.Is(err, bot.ErrorUnauthorized):
		class = ErrUnauthorized
	case errors.Is(err, bot.ErrorConflict):
		class = ErrConflict
	case errors.Is(err, bot.ErrorBadRequest):
		msg := strings.ToLower(err.Error())
		switch {
		case strings.Contains(msg, "thread not found"):
			class = ErrThreadNotFound
		case strings.Contains(msg, "chat not found"):
			class = ErrChatNotFound
		default:
			class = ErrBadRequest
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
