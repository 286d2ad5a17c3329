package telegram

import (
	"context"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// SetMenuButton makes the bot's default menu button, in every private
// chat, open the Mini App at url with the label text (setChatMenuButton).
func (c *Client) SetMenuButton(ctx context.Context, text, url string) error {
	_, err := call(ctx, c, "setChatMenuButton", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.SetChatMenuButton(ctx, &bot.SetChatMenuButtonParams{MenuButton: models.MenuButtonWebApp{
			Type: models.MenuButtonTypeWebApp, Text: text, WebApp: models.WebAppInfo{URL: url}}})
	})
	return err
}
