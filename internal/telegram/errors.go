package telegram

import (
	"errors"
	"fmt"
)

// Error classes only the runtimes act on; the ones modules act on
// (blocked, chat or thread not found, flood, rejected) are app's.
var (
	// ErrConflict: getUpdates while a webhook is set or another poller runs (409).
	ErrConflict = errors.New("telegram: conflict with another update consumer")
	// ErrUnauthorized: the token is wrong or revoked (401).
	ErrUnauthorized = errors.New("telegram: unauthorized")
)

// APIError is Telegram's refusal of one call, with its class.
type APIError struct {
	Method      string
	Code        int // error_code: 400, 403, ...
	Description string
	class       error // one of the lifecycle classes, or nil
	app         error // the app class it also matches, or nil
	right       string
}

// LackedRight is the kind of message a refusal for rights named
// ("photos"); "" for any other answer (app.LackedRight reads it).
func (e *APIError) LackedRight() string { return e.right }

func (e *APIError) Error() string {
	class := e.class
	if class == nil {
		class = e.app
	}
	if class == nil {
		return fmt.Sprintf("telegram: %s: %d %s", e.Method, e.Code, e.Description)
	}
	return fmt.Sprintf("%v (%s: %d %s)", class, e.Method, e.Code, e.Description)
}

// Is matches the error's class and the app class it stands for.
func (e *APIError) Is(target error) bool {
	return target != nil && (target == e.class || target == e.app)
}
