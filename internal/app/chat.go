package app

import (
	"errors"
	"fmt"
)

// A chat's lifecycle, as Telegram's answers tell it. Each error of these
// classes also matches the older class callers test (ErrBlocked,
// ErrChatNotFound, ErrThreadNotFound or ErrRejected), so Permanent holds.
var (
	// ErrChatMigrated: the group became a supergroup with a new id (a
	// *ChatMigratedError says which). The core moves the chat's state.
	ErrChatMigrated = errors.New("telegram: group upgraded to a supergroup")
	// ErrChatGone: the bot can never write to this chat again (blocked,
	// kicked, not a member, user deactivated, group deleted or
	// deactivated, chat not found). The core prunes the chat's state.
	ErrChatGone = errors.New("telegram: chat gone for this bot")
	// ErrSendRefused: this send is refused but the chat lives (the forum
	// topic is closed, deleted or unknown). Drop the send, keep the chat.
	ErrSendRefused = errors.New("telegram: send refused in this chat")
	// ErrNoRights: the bot is in the chat but may not send there. Drop the
	// send; the chat may grant the right back.
	ErrNoRights = errors.New("telegram: not enough rights to send")
)

// ChatMigratedError is the answer to a call with a basic group's old id
// after the group became a supergroup: the chat now lives at To.
//
// The Messenger resends a Send to To once and, when that succeeds, returns
// the message with no error (its Chat.ID is To). This error reaches a
// caller when the call was not resent (an edit) or the resend failed too
// (Resent, which it wraps).
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
// be refused again, so it is also ErrRejected (permanent).
func (e *ChatMigratedError) Is(target error) bool {
	return target == ErrChatMigrated || (e.Resent == nil && target == ErrRejected)
}

// ChatChange is what happened to a chat the bot knew. The core tells every
// module's OnChatChange, whichever way it learnt it (a service message, a
// my_chat_member update, a send's answer): at least once, maybe from both
// runtimes at once, so a hook must be idempotent.
type ChatChange struct {
	ChatID int64
	// MovedTo is the chat's new id when a group became a supergroup: move
	// what is keyed by ChatID there. Zero: the chat is gone for the bot
	// (it was blocked, kicked, or the chat deleted): forget it.
	MovedTo int64
}

// MemberLeft is a user who left a group or was removed from it, as the
// group's service message tells it: every bot in a group gets those, with
// no admin right (in some large supergroups Telegram sends none). The
// core tells every module's OnMemberLeft at least once, maybe from both
// runtimes at once, so a hook must be idempotent.
type MemberLeft struct {
	ChatID, UserID int64
}
