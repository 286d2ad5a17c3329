package telegram

import (
	"context"
	"errors"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Send sends a text message, cut to Telegram's limit by app.Fit.
func (c *Client) Send(ctx context.Context, m app.Message) (*models.Message, error) {
	m.Text, m.ParseMode = app.Fit(m.Text, m.ParseMode)
	p := &bot.SendMessageParams{
		ChatID:          m.ChatID,
		MessageThreadID: m.ThreadID,
		Text:            m.Text,
		ParseMode:       m.ParseMode,
		ReplyMarkup:     m.ReplyMarkup,
	}
	if m.ReplyTo != 0 {
		p.ReplyParameters = &models.ReplyParameters{MessageID: m.ReplyTo, AllowSendingWithoutReply: true}
	}
	if m.NoPreview {
		p.LinkPreviewOptions = &models.LinkPreviewOptions{IsDisabled: bot.True()}
	}
	return call(ctx, c, "sendMessage", m.ChatID, m.Bulk, func(ctx context.Context) (*models.Message, error) {
		return c.bot.SendMessage(ctx, p)
	})
}

// Edit rewrites a message's text and keyboard. Telegram refuses an edit
// to the same content ("message is not modified"): that is a double tap
// or a refresh with nothing new, done already, so no error.
func (c *Client) Edit(ctx context.Context, e app.Edit) error {
	e.Text, e.ParseMode = app.Fit(e.Text, e.ParseMode)
	p := &bot.EditMessageTextParams{ChatID: e.ChatID, MessageID: e.MessageID, Text: e.Text, ParseMode: e.ParseMode}
	if e.Keyboard != nil {
		p.ReplyMarkup = e.Keyboard
	}
	if e.NoPreview {
		p.LinkPreviewOptions = &models.LinkPreviewOptions{IsDisabled: bot.True()}
	}
	_, err := call(ctx, c, "editMessageText", e.ChatID, false, func(ctx context.Context) (*models.Message, error) {
		return c.bot.EditMessageText(ctx, p)
	})
	if errors.Is(err, app.ErrRejected) && strings.Contains(err.Error(), "message is not modified") {
		return nil
	}
	return err
}

// AnswerCallback acknowledges a callback query, optionally with a toast.
func (c *Client) AnswerCallback(ctx context.Context, queryID, text string) error {
	_, err := call(ctx, c, "answerCallbackQuery", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: queryID, Text: text})
	})
	return err
}

// SetCommands publishes the command menu.
func (c *Client) SetCommands(ctx context.Context, cmds []models.BotCommand) error {
	_, err := call(ctx, c, "setMyCommands", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: cmds})
	})
	return err
}

// GetMe returns the bot's own user.
func (c *Client) GetMe(ctx context.Context) (*models.User, error) {
	return call(ctx, c, "getMe", 0, false, c.bot.GetMe)
}

// DeleteWebhook removes any webhook so getUpdates can be used; with
// dropPending false, updates Telegram already holds are kept.
func (c *Client) DeleteWebhook(ctx context.Context, dropPending bool) error {
	_, err := call(ctx, c, "deleteWebhook", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.DeleteWebhook(ctx, &bot.DeleteWebhookParams{DropPendingUpdates: dropPending})
	})
	return err
}

// SetWebhook points Telegram at url, with the secret it will send back in
// X-Telegram-Bot-Api-Secret-Token.
func (c *Client) SetWebhook(ctx context.Context, url, secret string, allowed []string) error {
	_, err := call(ctx, c, "setWebhook", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.SetWebhook(ctx, &bot.SetWebhookParams{URL: url, SecretToken: secret, AllowedUpdates: allowed})
	})
	return err
}

// GetWebhookInfo reports the webhook and Telegram's pending update count.
func (c *Client) GetWebhookInfo(ctx context.Context) (*models.WebhookInfo, error) {
	return call(ctx, c, "getWebhookInfo", 0, false, c.bot.GetWebhookInfo)
}
