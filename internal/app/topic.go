package app

import (
	"context"
	"errors"

	"github.com/go-telegram/bot/models"
)

// SendInTopicOrChat sends m to its forum topic or, when Telegram refuses
// the send there for that topic alone (closed, deleted or unknown:
// ErrSendRefused), to the chat itself: what the bot owes a chat (a
// reminder, a price alert) reaches it while the chat lives. Any other
// answer is Send's, and the caller acts on it as on Send's.
func SendInTopicOrChat(ctx context.Context, bot Messenger, m Message) (*models.Message, error) {
	sent, err := bot.Send(ctx, m)
	if m.ThreadID == 0 || !errors.Is(err, ErrSendRefused) && !errors.Is(err, ErrThreadNotFound) {
		return sent, err
	}
	m.ThreadID = 0
	return bot.Send(ctx, m)
}
