package telegram

import (
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Error classes only the runtimes act on; the ones modules act on
// (blocked, chat or thread not found, flood, rejected) are app's.
var (
	// ErrConflict: getUpdates while a webhook is set or another poller runs (409).
	ErrConflict = errors.New("telegram: conflict with another update consumer")
	// ErrUnauthorized: the token is wrong or revoked (401).
	ErrUnauthorized = errors.New("telegram: unauthorized")
)

// The chat lifecycle's classes: what the engine does with a chat's state
// after an answer. They belong in the module API (internal/app); they are
// here until it takes them. Each error of these classes also matches the
// app class callers test today (app.ErrBlocked, app.ErrChatNotFound,
// app.ErrThreadNotFound or app.ErrRejected), so app.Permanent holds.
var (
	// ErrChatMigrated: the group became a supergroup with a new id
	// (a *ChatMigratedError says which). Move the chat's state to it.
	ErrChatMigrated = errors.New("telegram: group upgraded to a supergroup")
	// ErrChatGone: the bot can never write to this chat again (blocked,
	// kicked, not a member, user deactivated, group deleted or
	// deactivated, chat not found). Prune the chat's state.
	ErrChatGone = errors.New("telegram: chat gone for this bot")
	// ErrSendRefused: this send is refused but the chat lives (the forum
	// topic is closed, deleted or unknown). Drop the send, keep the chat.
	ErrSendRefused = errors.New("telegram: send refused in this chat")
	// ErrNoRights: the bot is in the chat but may not send there (an admin
	// restricted it, or a channel needs it to be an administrator). Drop the
	// send; the chat may grant the right back (a my_chat_member update).
	ErrNoRights = errors.New("telegram: not enough rights to send")
)

// APIError is Telegram's refusal of one call, with its class.
type APIError struct {
	Method      string
	Code        int // error_code: 400, 403, ...
	Description string
	class       error // one of the lifecycle classes, or nil
	app         error // the app class it also matches, or nil
}

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

// ChatMigratedError is the answer to a call with a basic group's old id
// after the group became a supergroup: the chat now lives at To.
//
// Send resends to To once and, when that succeeds, returns the message with
// no error (its Chat.ID is To); the WithChatMigrated hook hears of the move
// either way. This error reaches a caller when the call was not resent (an
// edit) or the resend failed too (Resent, which it wraps).
type ChatMigratedError struct {
	From, To int64
	// Resent is how the send resent to To failed; nil when not resent.
	Resent error
}

func (e *ChatMigratedError) Error() string {
	if e.Resent != nil {
		return fmt.Sprintf("telegram: chat %d moved to supergroup %d; resending there failed: %v", e.From, e.To, e.Resent)
	}
	return fmt.Sprintf("telegram: chat %d moved to supergroup %d", e.From, e.To)
}

// Unwrap is the resend's error, so its class shows through.
func (e *ChatMigratedError) Unwrap() error { return e.Resent }

// Is matches ErrChatMigrated. Not resent, the call sent again as is would
// be refused again, so it is also app.ErrRejected (permanent).
func (e *ChatMigratedError) Is(target error) bool {
	return target == ErrChatMigrated || (e.Resent == nil && target == app.ErrRejected)
}
