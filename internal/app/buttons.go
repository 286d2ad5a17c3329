package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-telegram/bot/models"
)

// MaxCallbackData is Telegram's limit on a button's callback data, in bytes.
const MaxCallbackData = 64

// Button is one inline-keyboard button: its label and the callback data
// its press brings back (ParseCallback reads it). Data is seen by anyone
// who can see the message: it carries ids, never a secret.
type Button struct {
	Text string
	Data CallbackData
}

// Keyboard is an inline keyboard of rows of buttons. It refuses data
// Telegram or ParseCallback would refuse (CallbackData.Encode), so a
// module finds out in its tests, not from a 400 in production.
func Keyboard(rows ...[]Button) (*models.InlineKeyboardMarkup, error) {
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: make([][]models.InlineKeyboardButton, 0, len(rows))}
	for _, row := range rows {
		out := make([]models.InlineKeyboardButton, 0, len(row))
		for _, b := range row {
			data, err := b.Data.Encode()
			if err != nil {
				return nil, fmt.Errorf("button %q: %w", b.Text, err)
			}
			out = append(out, models.InlineKeyboardButton{Text: b.Text, CallbackData: data})
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, out)
	}
	return kb, nil
}

// MustKeyboard is Keyboard for data a module builds from its own ids and
// names, whose longest its tests prove fits: a refusal there is a bug.
func MustKeyboard(rows ...[]Button) *models.InlineKeyboardMarkup {
	kb, err := Keyboard(rows...)
	if err != nil {
		panic(err)
	}
	return kb
}

// StaleButtonToast answers a press whose data no longer means anything:
// ParseCallback refused it (forged, or an older button's format), or it
// names a kind the module no longer has. It is English only: a module
// with Texts answers req.T(StaleButton), the same words in the presser's
// language.
const StaleButtonToast = "This button no longer applies."

// ErrUnfinished marks a press that acted but left work owed (a finished
// game's count that could not be written): see Unfinished.
var ErrUnfinished = errors.New("the press acted, but did not finish")

// Unfinished is the error of a callback handler whose press acted (its
// change landed) but whose follow-up failed: unlike other errors, the core
// does not end the press with it. It answers the press once, silently (it
// did act), and does not acknowledge the update, which runs again until
// the handler succeeds; a run again finds the press answered. Only a
// handler safe to run again returns it (its act happens once: applied
// once by the press's UpdateID, as ApplyOnce does).
func Unfinished(err error) error { return fmt.Errorf("%w: %w", ErrUnfinished, err) }

// Edit changes a message the bot sent: its text and its keyboard (nil
// Keyboard removes the keyboard).
type Edit struct {
	ChatID    int64
	MessageID int
	Text      string
	ParseMode models.ParseMode
	Keyboard  *models.InlineKeyboardMarkup
	NoPreview bool // link previews off
}

// Edit rewrites the message whose button was pressed, in place. Editing it
// to what it already says is not an error (a double tap).
func (c *CallbackRequest) Edit(ctx context.Context, text string, kb *models.InlineKeyboardMarkup) error {
	return c.EditMessage(ctx, Edit{Text: text, Keyboard: kb})
}

// EditMessage is Edit with every field of e (the chat and message are
// the pressed one's).
func (c *CallbackRequest) EditMessage(ctx context.Context, e Edit) error {
	if c.MessageID == 0 { // an inline message has no chat message to edit
		_, err := c.ReplyKeyboard(ctx, e.Text, e.Keyboard)
		return err
	}
	e.ChatID, e.MessageID = c.ChatID, c.MessageID
	return c.bot.Edit(ctx, e)
}

// ReplyKeyboard sends text with an inline keyboard to the chat and topic
// the button's message is in, and returns the message sent.
func (c *CallbackRequest) ReplyKeyboard(ctx context.Context, text string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	return c.bot.Send(ctx, Message{ChatID: c.ChatID, ThreadID: c.ThreadID, Text: text, Keyboard: kb})
}

// ReplyKeyboard sends text with an inline keyboard to the chat and topic
// the command came from, and returns the message sent.
func (r *Request) ReplyKeyboard(ctx context.Context, text string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	return r.send(ctx, Message{Text: text, Keyboard: kb})
}
