package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-telegram/bot/models"
)

// Messenger is the part of a Telegram client the core and modules use. The
// Telegram adapter implements it; so does the console. Its errors wrap the
// classes below, so modules act on them without knowing the adapter.
type Messenger interface {
	Send(ctx context.Context, m Message) (*models.Message, error)
	// Edit rewrites a message the bot sent; what it already says is no error.
	Edit(ctx context.Context, e Edit) error
	AnswerCallback(ctx context.Context, queryID, text string) error
	// SetCommands publishes one of Telegram's command menus (setMyCommands).
	SetCommands(ctx context.Context, m Menu) error
	GetMe(ctx context.Context) (*models.User, error)
	// ChatMember asks Telegram what userID is in the group chatID now
	// (getChatMember; the bot must be in the chat).
	ChatMember(ctx context.Context, chatID, userID int64) (Membership, error)
	Photos
	InlineAnswerer
}

// Menu is one of Telegram's command menus: the commands its chats are
// shown, in one language.
type Menu struct {
	Commands []models.BotCommand
	// Lang is the users' language_code the menu is for; "": everyone no
	// menu of their language is for (the default).
	Lang string
	// Groups: the menu of group chats (scope all_group_chats), not the
	// default scope's.
	Groups bool
}

// Message is one outgoing text message.
type Message struct {
	ChatID int64
	// ThreadID is the forum topic; 0 for the chat itself.
	ThreadID  int
	Text      string
	ParseMode models.ParseMode
	// ReplyTo quotes a message of the same chat (0: none). A reply whose
	// original was deleted is still sent, as a plain message.
	ReplyTo int
	// Keyboard is the message's inline keyboard (nil: none), as Edit's.
	Keyboard *models.InlineKeyboardMarkup
	// NoPreview turns link previews off.
	NoPreview bool
	// Bulk marks a broadcast send, held to the per-chat rate.
	Bulk bool
	// ForceReply asks the user's client to answer it as a reply (a
	// selective forced reply: only the users it mentions or replies to),
	// so that in a group with privacy mode on the answer reaches the bot.
	// Ignored with a Keyboard.
	ForceReply bool
}

// Error classes of a Messenger that callers act on, tested with errors.Is,
// so no module ever matches Telegram's English descriptions itself.
var (
	// ErrBlocked: the bot can no longer write to the chat (403: blocked by
	// the user, kicked from the group, user deactivated). Prune the subscriber.
	ErrBlocked = errors.New("telegram: forbidden to write to this chat")
	// ErrChatNotFound: the chat does not exist for this bot. Prune it.
	ErrChatNotFound = errors.New("telegram: chat not found")
	// ErrThreadNotFound: the forum topic is deleted or unknown. It is also
	// ErrSendRefused: the send is dropped and nothing is pruned, neither the
	// chat nor the topic (a subscription in it stays, its sends refused).
	// A closed topic is ErrSendRefused and ErrRejected, not this.
	ErrThreadNotFound = errors.New("telegram: message thread not found")
	// ErrFlood: Telegram kept answering 429 beyond the retry budget.
	ErrFlood = errors.New("telegram: rate limited beyond the retry budget")
	// ErrRejected: Telegram refused the request as made (any other 400:
	// a message too long, entities that do not parse). Sent again as is, it
	// is refused again.
	ErrRejected = errors.New("telegram: bad request")
)

// FloodError is a send Telegram asked to wait for longer than the update can
// (a 429 beyond the client's budget, or a group's pace): it wraps ErrFlood
// and says how long to wait. The update is not handled, and this attempt
// does not count toward giving it up: it waits, in its chat's queue.
type FloodError struct{ RetryAfter time.Duration }

func (e *FloodError) Error() string {
	return fmt.Sprintf("telegram: rate limited; retry after %s", e.RetryAfter)
}

// Is makes a FloodError match ErrFlood.
func (e *FloodError) Is(target error) bool { return target == ErrFlood }

// Permanent reports whether err is a Telegram refusal that no retry of the
// same update can change: the chat blocked the bot or is gone, the topic is
// gone or closed, the bot lacks the right to send there, or the request
// itself is refused. The core ends such an update as
// handled; everything else (the store, 5xx, the network, a flood) is
// retried.
func Permanent(err error) bool {
	for _, class := range []error{ErrBlocked, ErrChatNotFound, ErrThreadNotFound, ErrRejected, ErrChatGone, ErrSendRefused, ErrNoRights} {
		if errors.Is(err, class) {
			return true
		}
	}
	return false
}
