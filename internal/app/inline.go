package app

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"
)

// Telegram's limits on an inline answer
// (https://core.telegram.org/bots/api#answerinlinequery): at most 50
// results, each id 1 to 64 bytes and unique within the answer, and one
// answer per query, given within seconds of it (a late or second answer is
// refused: "query is too old and response timeout expired or query ID is
// invalid").
const (
	MaxInlineResults  = 50
	MaxInlineResultID = 64
)

// Inline is one of a module's answers to inline queries (`@bot btc` typed
// in any chat). The engine asks every module's Inline whose Match takes
// the query, concurrently and within a deadline, gathers what they
// answer, and answers the query once (answerInlineQuery); a handler that
// fails or is late is left out of that answer, never retried (the query
// is gone by then). Nothing matching is an empty answer, still given.
type Inline struct {
	// Match reports whether the query (trimmed, as typed) is this
	// handler's: "" is the empty query.
	Match func(query string) bool
	// Handler answers the query: up to MaxInlineResults results, each ID
	// unique within the handler's answer (the engine makes it unique
	// across modules).
	Handler func(ctx context.Context, q *InlineRequest) ([]InlineResult, error)
	// Personal: the results are the user's own (a portfolio, a game), so
	// Telegram must not show them to anyone else (is_personal).
	Personal bool
	// CacheTime is how long Telegram may show these results again for the
	// same query without asking (zero: DefaultInlineCache). A price card
	// is worth its market's price cache.
	CacheTime time.Duration
	// Help is its line in /help, under the module's commands: the query,
	// " - ", what it offers ("BTC (any coin) - its price card"); "": none.
	Help string
	// HelpKey is Help's key in the module's Texts, its line in the
	// reader's language ("" or a key the catalog lacks: Help).
	HelpKey string
}

// DefaultInlineCache is an Inline's CacheTime when it names none.
const DefaultInlineCache = 30 * time.Second

// InlineRequest is one inline query as a handler sees it.
type InlineRequest struct {
	// Query is what the user typed after the bot's name, trimmed.
	Query string
	// Sender is who typed it: inline queries always come from a user.
	Sender Actor
	// UserID is Sender.ID.
	UserID int64
	// ChatType is where it was typed: "sender" (the chat with the bot),
	// "private", "group", "supergroup", "channel"; "" when unknown.
	ChatType string
	// Role is the sender's role.
	Role Role
	// Update is the inline query's update_id.
	Update int64
	// Words are the module's texts in the asker's language.
	Words
}

// InlineResult is one result the user may pick: a text message sent in
// their name, "via @bot".
type InlineResult struct {
	// ID tells the result from the others of its handler's answer.
	ID string
	// Title and Description are what the list of results shows.
	Title, Description string
	// Text is the message sent when the result is picked.
	Text      string
	ParseMode models.ParseMode
	// Keyboard are URL buttons under the sent message (nil: none). A
	// callback button on it would reach no handler: the engine does not
	// route presses on messages sent inline.
	Keyboard *models.InlineKeyboardMarkup
	// NoPreview turns link previews off.
	NoPreview bool
}

// InlineAnswer is the one answer to an inline query.
type InlineAnswer struct {
	QueryID string
	Results []InlineResult
	// CacheTime is how long Telegram may reuse the answer.
	CacheTime time.Duration
	// Personal: cached for this user only (is_personal).
	Personal bool
}

// InlineAnswerer is the inline half of a Messenger.
type InlineAnswerer interface {
	// AnswerInline answers an inline query (answerInlineQuery). Telegram
	// refuses a second answer to a query and one given too late; both are
	// ErrRejected.
	AnswerInline(ctx context.Context, a InlineAnswer) error
}
