package games

import "github.com/go-telegram/bot/models"

// Confirm is the confirmation keyboard, for tests.
func Confirm[G any, P Replayable[G]](p *Play[G, P], g *G, user int64) *models.InlineKeyboardMarkup {
	return p.confirm(g, user)
}
