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

// Plain offers a plain message to a game as the move its command would
// make with the text as arguments: taken when the game Hears it, it runs
// (or its move is the one the game remembers: the message delivered again
// after the move ended the game), and take says the text is the game's
// kind of move (a five-letter word). A move goes through the command
// (Move), so a message delivered again moves the game once and earns the
// same reply.
func (p *Play[G, P]) Plain(take func(text string) bool, move func(context.Context, *app.Request) error) app.OnTextHandler {
	return func(ctx context.Context, r *app.TextRequest) (bool, error) {
		if !take(r.Text) || !p.Hears(r) {
			return false, nil
		}
		g, err := Current[G](ctx, p.Store, r.ChatID)
		if err != nil || g == nil {
			return false, err
		}
		if _, moved := Replayed[G, P](g, r.Request); !moved && *p.Over(g) {
			return false, nil
		}
		req := *r.Request
		req.Command = p.Command
		return true, move(ctx, &req)
	}
}
