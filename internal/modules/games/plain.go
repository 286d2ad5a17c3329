package games

import (
	"context"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Hears reports whether a plain message may be a move of the game: in a
// private chat any message; in a group only a reply to one of the game's
// own messages (one carrying its buttons), which is also all a group's
// privacy mode lets the bot hear. A game without buttons (no Prefix) hears
// a group's reply to any message of the bot.
func (p *Play[G, P]) Hears(r *app.TextRequest) bool {
	if r.Private {
		return true
	}
	to := r.Message.ReplyToMessage
	if to == nil {
		return false
	}
	if p.Prefix == "" {
		return true
	}
	if to.ReplyMarkup == nil {
		return false
	}
	for _, row := range to.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if strings.HasPrefix(b.CallbackData, p.Prefix) {
				return true
			}
		}
	}
	return false
}

// IsRunning reports whether a game runs for subject: a plain message
// is a move only then (a command starts one).
func (p *Play[G, P]) IsRunning(ctx context.Context, subject int64) (bool, error) {
	g, err := Current[G](ctx, p.Store, subject)
	if err != nil || g == nil {
		return false, err
	}
	return !*p.Over(g), nil
}

// Plain offers a plain message to a game as the move its command would
// make with the text as arguments: taken when the game Hears it, it runs,
// and take says the text is the game's kind of move (a five-letter word).
// A move goes through the command (Move), so a message delivered again
// moves the game once.
func (p *Play[G, P]) Plain(take func(text string) bool, move func(context.Context, *app.Request) error) app.OnTextHandler {
	return func(ctx context.Context, r *app.TextRequest) (bool, error) {
		if !take(r.Text) || !p.Hears(r) {
			return false, nil
		}
		running, err := p.IsRunning(ctx, r.ChatID)
		if err != nil || !running {
			return false, err
		}
		req := *r.Request
		req.Command = p.Command
		return true, move(ctx, &req)
	}
}
