package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// TextRequest is one plain message, as a step or OnText sees it: the
// Request of its chat and sender, with Command "" and Args the text.
//
// How a plain message is routed (a message that is not a command: no
// bot_command entity at its start):
//
//  1. A command goes to its module, always, even while a conversation
//     waits: the conversation keeps waiting (it ends by its step, its
//     timeout, /cancel or a new conversation replacing it).
//  2. Else a conversation waiting for this user in this chat and topic
//     (Conversations.Start) gets it: its module's Steps[step] runs.
//  3. Else each module's OnText, in module order, until one takes it.
//  4. Else, in a private chat, a one-line hint that the bot takes commands;
//     in a group, nothing.
//
// In a group the bot hears, with Telegram's privacy mode on, only commands
// and replies to its own messages; the engine routes there only a plain
// message that replies to one of the bot's messages, so the same rule holds
// whatever the group's privacy mode. A step asked in a group is asked with
// a forced reply (TextRequest.Ask, Request.Ask), which makes the user's
// answer such a reply.
//
// Each plain message is claimed once like any update; a conversation's
// record also remembers the updates that moved it, so a message delivered
// again never moves it twice: its step runs again from the wait the
// message answered, its changes (Continue, End, ApplyOnce by UpdateID)
// made once, and says again what it says (the run before may have died
// before its question was sent). /cancel is the engine's: it ends whatever
// conversation the user holds in the chat.
type TextRequest struct {
	*Request
	// Text is the message's text (its caption for media), trimmed.
	Text string
	// Conversation is the conversation the message is a step of (its Step
	// and State); zero for OnText.
	Conversation Conversation

	conv Conversations
}

// NewTextRequest binds a plain message to the conversations a step moves
// (nil for OnText). The engine builds every TextRequest this way; a
// module's own tests may too.
func NewTextRequest(r *Request, text string, c Conversation, conv Conversations) *TextRequest {
	return &TextRequest{Request: r, Text: text, Conversation: c, conv: conv}
}

// Continue moves the conversation to step, waiting ttl (0: the default)
// for the next message, with state as its data. A step that neither
// continues nor ends its conversation ends it: one message, one step.
func (t *TextRequest) Continue(ctx context.Context, step string, ttl time.Duration, state []byte) error {
	if t.conv == nil {
		return ErrNoConversation
	}
	c := ConversationOf(t.Request, step, ttl, state)
	c.Seq = t.Conversation.Seq
	return t.conv.Start(ctx, c)
}

// End ends the conversation this message is a step of.
func (t *TextRequest) End(ctx context.Context) error {
	if t.conv == nil {
		return ErrNoConversation
	}
	return t.conv.End(ctx, t.ChatID, t.ThreadID, t.UserID, t.UpdateID())
}

// Ask sends a question whose answer is the conversation's next message: in
// a group with a forced reply to the user's message (selective), so that
// the answer replies to the bot and reaches it with privacy mode on.
func (r *Request) Ask(ctx context.Context, text string) (*models.Message, error) {
	m := Message{ChatID: r.ChatID, ThreadID: r.ThreadID, Text: text}
	if !r.Private {
		m.ForceReply = true
		if r.Message != nil {
			m.ReplyTo = r.Message.ID
		}
	}
	return r.bot.Send(ctx, m)
}

// Conversation is one user's conversation with one module in one chat and
// topic: which step their next plain message there goes to.
type Conversation struct {
	ChatID   int64
	ThreadID int
	UserID   int64
	// Step names the module's step handler (Module.Steps).
	Step string
	// State is the module's own data, at most MaxConversationState bytes.
	State []byte
	// TTL is how long the step waits for a message (0:
	// DefaultConversationTTL; at most MaxConversationTTL). A step that
	// waits longer ends: the module's OnConversationEnd hears EndTimedOut
	// (none: the engine says the conversation timed out).
	TTL time.Duration
	// Update is the update that starts or moves the conversation: the
	// change is made once per update (0: every time).
	Update int64
	// Seq is the wait a step answers, set by the engine on a step's
	// Conversation: Continue moves the conversation only from there
	// (ErrConversationMoved otherwise). 0 (a command's Start): from
	// wherever it is.
	Seq int64
}

// ConversationOf is the conversation of r's chat, topic and sender at step.
func ConversationOf(r *Request, step string, ttl time.Duration, state []byte) Conversation {
	return Conversation{ChatID: r.ChatID, ThreadID: r.ThreadID, UserID: r.UserID, Step: step, State: state, TTL: ttl, Update: r.UpdateID()}
}

// Limits of a conversation.
const (
	DefaultConversationTTL = 5 * time.Minute
	MaxConversationTTL     = 24 * time.Hour
	MaxConversationState   = 2 << 10
)

// Errors of Conversations.
var (
	// ErrConversationInvalid: a step the module has no handler for, a TTL
	// or state past the limits, no chat or user.
	ErrConversationInvalid = errors.New("conversation: invalid")
	// ErrNoConversation: the request is not a step of a conversation.
	ErrNoConversation = errors.New("conversation: none")
	// ErrConversationMoved: another message moved the conversation since
	// this step's message was routed to it. Returned from the step, it
	// fails the update, which is routed again, to the step it is at now.
	ErrConversationMoved = errors.New("conversation: moved on since this message was routed")
)

// Conversations are a module's conversations (Deps.Conversations). There is
// one per user, chat and topic, across modules: starting one replaces any
// other there (its module hears EndReplaced).
type Conversations interface {
	// Start begins c, or moves it to c.Step when the module holds it, once
	// per c.Update; the step waits c.TTL.
	Start(ctx context.Context, c Conversation) error
	// End ends the module's conversation there (none: no error), once per
	// update.
	End(ctx context.Context, chatID int64, threadID int, userID, update int64) error
}

// EndReason is why a conversation ended other than by its own step.
type EndReason int

const (
	// EndTimedOut: no message came within the step's TTL.
	EndTimedOut EndReason = iota
	// EndCancelled: the user sent /cancel.
	EndCancelled
	// EndReplaced: a conversation of this or another module took its place.
	EndReplaced
)

func (r EndReason) String() string {
	return [...]string{"timed out", "cancelled", "replaced"}[r]
}

// ConversationEnd tells a module its conversation ended (Module.OnConversationEnd).
type ConversationEnd struct {
	Conversation
	Reason EndReason
}

// TextHandler handles a plain message: a step, or OnText.
type TextHandler func(ctx context.Context, req *TextRequest) error

// OnTextHandler is Module.OnText: taken false leaves the message to the
// next module.
type OnTextHandler func(ctx context.Context, req *TextRequest) (taken bool, err error)

// RepliesToBot reports whether m replies to a message sent by the bot
// named username (without "@").
func RepliesToBot(m *models.Message, username string) bool {
	r := m.ReplyToMessage
	return r != nil && r.From != nil && r.From.IsBot && strings.EqualFold(r.From.Username, username)
}
