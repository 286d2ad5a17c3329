package telegram

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot"

	"github.com/miti99bot/miti99bot/internal/app"
)

// answer is a Bot API error answer: {"ok":false,"error_code":..,
// "description":..,"parameters":{"migrate_to_chat_id":..,"retry_after":..}}.
type answer struct {
	Code        int
	Description string
	MigrateTo   int64
	RetryAfter  int // seconds; 0 when the answer has none
}

// answerOf recovers the answer from go-telegram/bot's error, which keeps the
// code as a sentinel or type, the description as text and both parameters.
// ok is false for an error that is no answer (the network, a 5xx page).
func answerOf(err error) (a answer, ok bool) {
	var mig *bot.MigrateError
	var tm *bot.TooManyRequestsError
	switch {
	case err == nil:
		return answer{}, false
	case errors.As(err, &mig):
		desc := strings.TrimPrefix(mig.Message, bot.ErrorBadRequest.Error()+": ")
		return answer{Code: http.StatusBadRequest, Description: desc, MigrateTo: int64(mig.MigrateToChatID)}, true
	case errors.As(err, &tm):
		desc := strings.TrimPrefix(tm.Message, bot.ErrorTooManyRequests.Error()+", ")
		return answer{Code: http.StatusTooManyRequests, Description: desc, RetryAfter: tm.RetryAfter}, true
	}
	for _, c := range []struct {
		code     int
		sentinel error
	}{
		{http.StatusBadRequest, bot.ErrorBadRequest},
		{http.StatusUnauthorized, bot.ErrorUnauthorized},
		{http.StatusForbidden, bot.ErrorForbidden},
		{http.StatusNotFound, bot.ErrorNotFound},
		{http.StatusConflict, bot.ErrorConflict},
	} {
		if errors.Is(err, c.sentinel) {
			return answer{Code: c.code, Description: strings.TrimPrefix(err.Error(), c.sentinel.Error()+", ")}, true
		}
	}
	return answer{}, false
}

// wait is how long a 429 asks to wait: its retry_after, else the number in
// "Too Many Requests: retry after N" (answers without parameters were
// seen), and at least a second.
func (a answer) wait() time.Duration {
	secs := a.RetryAfter
	if secs <= 0 {
		_, n, _ := strings.Cut(a.Description, "retry after ")
		secs, _ = strconv.Atoi(strings.TrimSpace(n))
	}
	return time.Duration(max(secs, 1)) * time.Second
}

// refusals name the 400 (and the odd 403) descriptions that say more than
// the code, matched lower-cased. Telegram words some in English, some as
// MTProto's upper-case codes; the recorded answers are in
// telegramtest/testdata. The rights are looked for before the code decides.
var refusals = []struct {
	text       string
	class, app error
}{
	{"not enough rights", app.ErrNoRights, app.ErrRejected},
	{"have no rights", app.ErrNoRights, app.ErrRejected},
	{"need administrator rights", app.ErrNoRights, app.ErrRejected},
	{"chat_write_forbidden", app.ErrNoRights, app.ErrRejected},
	{"message thread not found", app.ErrSendRefused, app.ErrThreadNotFound},
	{"topic_deleted", app.ErrSendRefused, app.ErrThreadNotFound},
	{"topic_closed", app.ErrSendRefused, app.ErrRejected},
	{"chat not found", app.ErrChatGone, app.ErrChatNotFound},
	{"group is deactivated", app.ErrChatGone, app.ErrChatNotFound},
	{"group chat was deactivated", app.ErrChatGone, app.ErrChatNotFound},
}

// lackedRight is the kind of message in "not enough rights to send photos
// to the chat" (lower-cased); "" when desc names none.
func lackedRight(desc string) string {
	_, rest, ok := strings.Cut(desc, "not enough rights to send ")
	if !ok {
		return ""
	}
	right, _, _ := strings.Cut(rest, " to the chat")
	return strings.TrimSpace(right)
}

// classify maps a call's error onto the error classes: the one place where
// Telegram's answers are read. A migrate_to_chat_id decides whatever the
// wording (it changed over the years); then the descriptions above; then
// the code: every 403 is a chat gone, any other 400 a rejected request.
func classify(method string, chatID int64, err error) error {
	a, ok := answerOf(err)
	if !ok {
		if err == nil {
			return nil
		}
		return fmt.Errorf("telegram: %s: %w", method, err)
	}
	if a.MigrateTo != 0 {
		return fmt.Errorf("telegram: %s: %w", method, &app.ChatMigratedError{From: chatID, To: a.MigrateTo})
	}
	e := &APIError{Method: method, Code: a.Code, Description: a.Description}
	desc := strings.ToLower(a.Description)
	for _, r := range refusals {
		if (a.Code == http.StatusBadRequest || a.Code == http.StatusForbidden) && strings.Contains(desc, r.text) {
			e.class, e.app = r.class, r.app
			if r.class == app.ErrNoRights {
				e.right = lackedRight(desc)
			}
			return e
		}
	}
	switch a.Code {
	case http.StatusTooManyRequests:
		return fmt.Errorf("telegram: %s: %w", method, &app.FloodError{RetryAfter: a.wait()})
	case http.StatusForbidden:
		e.class, e.app = app.ErrChatGone, app.ErrBlocked
	case http.StatusBadRequest:
		e.app = app.ErrRejected
	case http.StatusUnauthorized:
		e.class = ErrUnauthorized
	case http.StatusConflict:
		e.class = ErrConflict
	}
	return e
}
