package app

import (
	"context"

	"github.com/go-telegram/bot/models"
)

// NewRequest binds a command invocation to the Messenger its replies go
// through. The engine builds every Request this way; a module's own tests
// may too.
func NewRequest(bot Messenger, r Request) *Request {
	r.bot = bot
	return &r
}

// NewCallbackRequest binds a button press to the Messenger its answer,
// edits and replies go through.
func NewCallbackRequest(bot Messenger, r CallbackRequest) *CallbackRequest {
	r.bot = bot
	return &r
}

// Request is one command invocation, as a handler sees it.
type Request struct {
	Update  *models.Update
	Message *models.Message
	Module  string
	Command string // without "/" or mention
	Args    string // the text after the command, trimmed
	ChatID  int64
	// ThreadID is the forum topic the command came from (0 outside topics);
	// replies go back to it.
	ThreadID int
	// Sender is who the command speaks for: the chat a message was sent on
	// behalf of (an anonymous admin's group, a channel), else its user
	// (see Actor). Read it, not Message.From, which is then a placeholder
	// shared by every such chat.
	Sender Actor
	// UserID is Sender.ID: what a module keys a speaker's state by.
	UserID  int64
	Private bool // a private chat with the bot
	// Role is the Sender's (a chat's is RoleUser: an anonymous admin may
	// be anyone among its admins).
	Role Role
	// Words are the module's texts in the chat's language: r.T(key).
	Words

	bot Messenger
}

// Reply sends plain text to the chat and topic the command came from, and
// returns the message sent (its ID and Chat.ID, the chat it reached).
func (r *Request) Reply(ctx context.Context, text string) (*models.Message, error) {
	return r.send(ctx, Message{Text: text})
}

// ReplyHTML sends HTML-formatted text (escape user input with
// html.EscapeString), and returns the message sent.
func (r *Request) ReplyHTML(ctx context.Context, text string) (*models.Message, error) {
	return r.send(ctx, Message{Text: text, ParseMode: models.ParseModeHTML})
}

// ReplyMessage sends m to the command's chat and topic (m's ChatID and
// ThreadID are filled in), and returns the message sent.
func (r *Request) ReplyMessage(ctx context.Context, m Message) (*models.Message, error) {
	return r.send(ctx, m)
}

// UpdateID is the id of the update r came in (0 for a request built
// without one): the id a change it makes is applied once by.
func (r *Request) UpdateID() int64 {
	if r.Update == nil {
		return 0
	}
	return r.Update.ID
}

func (r *Request) send(ctx context.Context, m Message) (*models.Message, error) {
	m.ChatID, m.ThreadID = r.ChatID, r.ThreadID
	return r.bot.Send(ctx, m)
}

// CallbackRequest is one inline-keyboard press.
type CallbackRequest struct {
	// Update is the update the press came in (nil for a request built
	// without one).
	Update    *models.Update
	Query     *models.CallbackQuery
	Module    string
	Data      string // the whole callback data, prefix included
	ChatID    int64
	ThreadID  int
	MessageID int // the message carrying the keyboard; 0 for inline messages
	// Sender is the user who pressed: a press never comes from a chat
	// (ActsFor decides a press on a chat's button).
	Sender Actor
	UserID int64 // Sender.ID
	Role   Role
	// Words are the module's texts in the chat's language (a toast, an
	// edit): c.T(key).
	Words

	bot Messenger
}

// Answer shows text as a toast. A press is answered once: without a call
// the core answers it silently, and a second call is not sent.
func (c *CallbackRequest) Answer(ctx context.Context, text string) error {
	return c.bot.AnswerCallback(ctx, c.Query.ID, text)
}

// UpdateID is the id of the update the press came in (0 for a request
// built without one): a change the press makes is applied once by it
// (ApplyOnce), so a press Telegram delivers again acts once.
func (c *CallbackRequest) UpdateID() int64 {
	if c.Update == nil {
		return 0
	}
	return c.Update.ID
}

// Reply sends text to the chat and topic of the pressed message, and
// returns the message sent.
func (c *CallbackRequest) Reply(ctx context.Context, text string) (*models.Message, error) {
	return c.bot.Send(ctx, Message{ChatID: c.ChatID, ThreadID: c.ThreadID, Text: text})
}
